import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openSocket } from '../helpers/ws-client.ts'
import { random } from './malformed-requests.ts'

/**
 * Junk over both WebSocket endpoints: messages that are not JSON, JSON nested tens of thousands deep,
 * envelopes of the wrong shape or naming paths that are no client endpoint. Every one gets an error
 * message with a 4xx status, the socket stays usable, and a good request still works after.
 */

let upstream: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startMockUpstream(openaiMock)
  proxy = await startTestProxy({ 'api-keys': ['k'], 'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, models: [{ name: 'mock-gpt', alias: 'm' }] }] })
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

function junk(rand: () => number): string {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!
  const depth = pick([300, 5000, 50_000])
  return pick([
    'not json', '', '{', 'null', '[]', '42', '"text"', nested(depth), `{"id":"x","path":"/v1/chat/completions","body":${nested(depth)}}`,
    '{"id":"x","path":"/v1/chat/completions"}', '{"id":"x","path":42,"body":{}}', '{"id":"x","path":"/v0/management/config","body":{}}',
    '{"id":"x","path":"/v1beta/models/..\\\\..\\\\api\\\\user:generateContent","body":{}}', '{"id":"x","path":"/v1/chat/completions","body":{"model":"nope","messages":[]}}',
    `{"type":"response.create","model":"m","input":${nested(depth)}}`, '{"type":"response.create","previous_response_id":"resp_x","input":[]}', '{"type":"other"}',
  ])
}

/** The next message on a socket, parsed. */
const nextMessage = (socket: WebSocket) => new Promise<any>(resolve => socket.once('message', data => resolve(JSON.parse(data.toString()))))

describe('WebSocket fuzz', () => {
  it.each(['/v1/ws', '/v1/responses'])('%s: 300 junk messages, each an error with a 4xx status; the socket stays usable', async (path) => {
    const socket = await openSocket(`${proxy.url.replace('http', 'ws')}${path}`, { authorization: 'Bearer k' })
    const rand = random(path.length)
    try {
      for (let i = 0; i < 300; i++) {
        const text = junk(rand)
        const reply = nextMessage(socket)
        socket.send(text)
        const message = await reply
        expect(message.type, text.slice(0, 80)).toBe('error')
        const status = message.status ?? (message.error?.code === 'previous_response_not_found' || message.error?.type === 'invalid_request_error' ? 400 : 0)
        expect(status >= 400 && status < 500, `${text.slice(0, 80)} -> ${JSON.stringify(message).slice(0, 200)}`).toBe(true)
      }
      const good = nextMessage(socket)
      socket.send(path === '/v1/ws'
        ? JSON.stringify({ id: 'ok', path: '/v1/chat/completions', body: { model: 'm', messages: [{ role: 'user', content: 'after the junk' }] } })
        : JSON.stringify({ type: 'response.create', model: 'm', input: 'after the junk' }))
      const first = await good
      expect(first.type).toBe(path === '/v1/ws' ? 'response' : 'response.created')
    } finally {
      socket.close()
    }
  }, 60_000)
})
