import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

let upstream: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startMockUpstream(request => openaiMock(request))
  proxy = await startTestProxy({ 'api-keys': ['k'], 'max-request-body-mb': 1, 'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, models: [{ name: 'mock-gpt', alias: 'm' }] }] })
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

const post = (path: string, body: string, headers: Record<string, string> = {}) => fetch(`${proxy.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json', ...headers }, body })

describe('operations', () => {
  it('healthz and readyz answer without a key', async () => {
    expect(await (await fetch(`${proxy.url}/healthz`)).json()).toEqual({ status: 'ok' })
    expect((await fetch(`${proxy.url}/readyz`)).status).toBe(200)
    proxy.proxy.kernel.services.draining = true
    expect((await fetch(`${proxy.url}/readyz`)).status).toBe(503)
    proxy.proxy.kernel.services.draining = false
  })

  it('a body over max-request-body-mb is a 413 in the client format, and the server keeps serving', async () => {
    const big = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(1_200_000) }] })
    const chat = await post('/v1/chat/completions', big)
    expect(chat.status).toBe(413)
    expect((await chat.json()).error).toMatchObject({ message: expect.stringContaining('too large') })
    const messages = await post('/v1/messages', big)
    expect(messages.status).toBe(413)
    expect((await messages.json())).toMatchObject({ type: 'error', error: { type: 'request_too_large' } })
    expect((await post('/v1/chat/completions', JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'small' }] }))).status).toBe(200)
  })

  it('every response carries X-Request-ID; a safe inbound one is kept, an unsafe one replaced', async () => {
    const generated = await fetch(`${proxy.url}/nope`)
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const kept = await post('/v1/chat/completions', JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] }), { 'x-request-id': 'trace-42.a_b' })
    expect(kept.headers.get('x-request-id')).toBe('trace-42.a_b')
    const unsafe = await post('/v1/chat/completions', '{}', { 'x-request-id': '../../etc/passwd' })
    expect(unsafe.headers.get('x-request-id')).not.toContain('/')
  })
})
