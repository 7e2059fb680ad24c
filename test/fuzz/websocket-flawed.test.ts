import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { clientKey, familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'
import { tolerantMock } from '../helpers/mock-openai-server.ts'
import { openSocket } from '../helpers/ws-client.ts'
import { flawed } from './bad-bytes.ts'
import { offFormat, type ErrorFormat } from './error-formats.ts'

/**
 * Flawed bodies (bad-bytes.ts) inside WebSocket envelopes, as binary frames so that bytes which are not
 * UTF-8 reach the proxy: every envelope ends in a success or an error with a 4xx status whose body is
 * in the named endpoint's format, never a 5xx; bytes that are not UTF-8 are always a 400.
 */
let running: FamilyProxy
beforeAll(async () => {
  running = await startFamilyProxy()
  for (const upstream of Object.values(running.upstreams)) upstream.handler = tolerantMock(upstream.handler)
})
afterAll(async () => { await running?.close() })

const routes: Array<{ path: (model: string) => string; format: ErrorFormat; body: (model: string) => unknown }> = [
  { path: () => '/v1/chat/completions', format: 'openai', body: model => ({ model, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }) },
  { path: () => '/v1/messages', format: 'messages', body: model => ({ model, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }) },
  { path: () => '/v1/responses', format: 'openai', body: model => ({ model, input: [{ type: 'message', role: 'user', content: 'hi' }] }) },
  { path: model => `/v1beta/models/${model}:generateContent`, format: 'generate', body: () => ({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) },
]

/** Messages of envelope `id` until its last one (`response`, `error` or `done`). */
function answerOf(socket: WebSocket, id: string): Promise<any[]> {
  return new Promise((resolve) => {
    const seen: any[] = []
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString())
      if (message.id !== id && message.id !== null) return
      seen.push(message)
      if (['response', 'error', 'done'].includes(message.type)) {
        socket.off('message', onMessage)
        resolve(seen)
      }
    }
    socket.on('message', onMessage)
  })
}

describe('flawed bodies in /v1/ws envelopes', () => {
  it('a success or a 4xx in the endpoint\'s format, never a 5xx; not UTF-8 is a 400', async () => {
    const socket = await openSocket(`${running.proxy.url.replace('http', 'ws')}/v1/ws`, { authorization: `Bearer ${clientKey}` })
    let n = 0
    try {
      const cases = fc.constantFrom(...routes).chain(route => fc.constantFrom(...Object.values(familyModels)).chain(model => fc.tuple(fc.constant(route), fc.constant(model), flawed([route.body(model)]))))
      await fc.assert(fc.asyncProperty(cases, async ([route, model, { bytes, flaw, where }]) => {
        const id = `e${n++}`
        const answer = answerOf(socket, id)
        socket.send(Buffer.concat([Buffer.from(`{"id":"${id}","path":${JSON.stringify(route.path(model))},"body":`), bytes, Buffer.from('}')]))
        const last = (await answer).at(-1)
        const context = `${flaw} at ${where}: ${JSON.stringify(last).slice(0, 300)}`
        expect(last.status, context).toBeLessThan(500)
        if (flaw === 'invalid-utf8') expect(last, context).toMatchObject({ type: 'error', status: 400 })
        if (last.type === 'error' && last.id !== null) expect(offFormat(route.format, JSON.stringify(last.body)), context).toBeUndefined()
      }), { numRuns: 200 })
    } finally {
      socket.close()
    }
  }, 60_000)
})
