import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'

/**
 * Upstream errors that do not look like the usual ones: an error body with status 200 (some gateways
 * and relays), and the messages API's 529 "overloaded". Either is a failed attempt: the next credential
 * answers, and with none left the client gets an error, never a 200 it is charged for.
 */
const hits: string[] = []
let server: Server
let proxy: TestProxy
beforeAll(async () => {
  server = createServer(async (req, res) => {
    const parts: Buffer[] = []
    for await (const part of req) parts.push(part as Buffer)
    const key = String(req.headers['x-api-key'] ?? req.headers.authorization ?? '').replace(/^Bearer /, '')
    hits.push(key)
    const error = (status: number, body: object) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)) }
    if (key === 'error-200') return error(200, { error: { message: 'upstream overloaded, try again (key error-200)', type: 'server_error', code: 503 } })
    if (key === 'overloaded') return error(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
    if (key === 'overloaded-ra') {
      res.writeHead(529, { 'content-type': 'application/json', 'retry-after': '7' })
      return res.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }))
    }
    const mock = req.url!.startsWith('/v1/messages') ? messagesMock : openaiMock
    const answer = await mock(new Request(`http://mock${req.url}`, { method: 'POST', headers: req.headers as HeadersInit, body: Buffer.concat(parts) }))
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
    res.end(await answer.text())
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const compat = (alias: string, keys: string[]) => ({ name: alias, 'base-url': `${url}/v1`, 'api-key-entries': keys.map(key => ({ 'api-key': key })), models: [{ name: 'mock-gpt', alias }] })
  proxy = await startTestProxy({
    'api-keys': ['k'],
    routing: { strategy: 'fill-first' },
    'remote-management': { 'secret-key': 'adm' },
    recorder: { mode: 'all' },
    'compat-provider': [compat('error-then-ok', ['error-200', 'ok']), compat('error-only', ['error-200'])],
    'beta-api-key': [
      ...['overloaded', 'ok'].map(key => ({ 'api-key': key, 'base-url': url, models: [{ name: 'mock-claude', alias: 'overloaded-then-ok' }] })),
      { 'api-key': 'overloaded-ra', 'base-url': url, models: [{ name: 'mock-claude', alias: 'overloaded-only' }] },
    ],
  })
})
afterAll(async () => {
  await proxy?.close()
  server?.closeAllConnections()
  await new Promise(resolve => server?.close(resolve))
})

const post = async (path: string, body: object) => {
  const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer k', 'x-api-key': 'k', 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: response.status, text: await response.text(), retryAfter: response.headers.get('retry-after') }
}
const chat = (model: string) => post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] })

describe('upstream errors in unusual shapes', () => {
  it('an error body with status 200 fails over to the next credential', async () => {
    const from = hits.length
    const { status, text } = await chat('error-then-ok')
    expect(status, text).toBe(200)
    expect(JSON.parse(text).choices[0].message.content).toContain('playground')
    expect(hits.slice(from)).toEqual(['error-200', 'ok'])
  })

  it('with no credential left, the client gets the error with its status, and no usage is recorded', async () => {
    const { status, text } = await chat('error-only')
    expect(status).toBe(503)
    expect(JSON.parse(text).error.message).toContain('overloaded')
    expect(text).not.toContain('key error-200')
    const recorded = await (await fetch(`${proxy.url}/v0/management/requests?limit=1`, { headers: { authorization: 'Bearer adm' } })).json()
    expect(recorded.requests[0]).toMatchObject({ model: 'error-only', status: 503 })
    expect(recorded.requests[0].usage).toBeUndefined()
  })

  it('a messages 529 (overloaded) fails over like a 503', async () => {
    const from = hits.length
    const { status, text } = await post('/v1/messages', { model: 'overloaded-then-ok', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })
    expect(status, text).toBe(200)
    expect(hits.slice(from)).toEqual(['overloaded', 'ok'])
  })

  // The messages API's 529 is no status an OpenAI-format vendor sends: those clients get its 503 overload.
  it.each([
    ['chat completions', '/v1/chat/completions', { model: 'overloaded-only', messages: [{ role: 'user', content: 'hi' }] }],
    ['chat completions, streamed', '/v1/chat/completions', { model: 'overloaded-only', stream: true, messages: [{ role: 'user', content: 'hi' }] }],
    ['responses', '/v1/responses', { model: 'overloaded-only', input: 'hi' }],
    ['responses, streamed', '/v1/responses', { model: 'overloaded-only', stream: true, input: 'hi' }],
  ])('a messages 529 reaches a %s client as the 503 its vendor sends for overload, with Retry-After', async (_name, path, body) => {
    const { status, text, retryAfter } = await post(path, body)
    expect(status, text).toBe(503)
    expect(retryAfter).toBe('7')
    const { error } = JSON.parse(text)
    expect(error).toMatchObject({ type: 'service_unavailable_error', code: 'server_is_overloaded' })
    expect(error.message).toMatch(/overloaded/i)
    expect(error.message).toContain('Overloaded')
  })

  it('a messages client keeps the 529 (same format), and a generateContent client gets the API\'s 503 UNAVAILABLE', async () => {
    const messages = await post('/v1/messages', { model: 'overloaded-only', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })
    expect(messages.status, messages.text).toBe(529)
    expect(messages.retryAfter).toBe('7')
    expect(JSON.parse(messages.text)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
    const generate = await post('/v1beta/models/overloaded-only:generateContent', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })
    expect(generate.status, generate.text).toBe(503)
    expect(JSON.parse(generate.text).error).toMatchObject({ code: 503, status: 'UNAVAILABLE' })
    expect(JSON.parse(generate.text).error.message).toContain('Overloaded')
    expect(generate.retryAfter).toBe('7')
  })
})
