import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openSocket } from '../helpers/ws-client.ts'
import { keyCounts } from '../fuzz/ws-differential.ts'

/**
 * A `/v1/responses` socket message the proxy cannot read (not JSON, nested too deep, not UTF-8) is
 * answered as the same bytes POSTed to `/v1/responses` are: the same status and error, and counted
 * the same for the client key.
 */
let upstream: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startMockUpstream(openaiMock)
  proxy = await startTestProxy({
    'client-keys': ['http', 'ws'].map(name => ({ key: `ck-${name}`, name })),
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, models: [{ name: 'mock-gpt', alias: 'm' }] }],
  })
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const nextMessage = (socket: WebSocket) => new Promise<any>(resolve => socket.once('message', data => resolve(JSON.parse(data.toString()))))
const deep = '{"type":"response.create","input":' + '['.repeat(5000) + ']'.repeat(5000) + '}'
const bodies: Array<[string, string | Buffer]> = [['not JSON', '{"type":"response.create", oops'], ['nested too deep', deep], ['not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]]

describe('/v1/responses socket: an unreadable message is answered and counted as over HTTP', () => {
  it.each(bodies)('%s', async (_label, bytes) => {
    const http = await fetch(`${proxy.url}/v1/responses`, { method: 'POST', headers: { authorization: 'Bearer ck-http', 'content-type': 'application/json' }, body: typeof bytes === 'string' ? bytes : new Uint8Array(bytes) })
    const httpError = (await http.json() as { error: unknown }).error
    const socket = await openSocket(`${proxy.url.replace('http', 'ws')}/v1/responses`, { authorization: 'Bearer ck-ws' })
    try {
      const reply = nextMessage(socket)
      socket.send(bytes)
      expect(await reply).toEqual({ type: 'error', status: http.status, error: httpError, headers: { 'x-request-id': expect.any(String) } })
    } finally {
      socket.close()
    }
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text()
    expect(keyCounts(metrics, 'ws')).toEqual(keyCounts(metrics, 'http'))
  })
})
