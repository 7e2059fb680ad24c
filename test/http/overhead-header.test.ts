import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

const upstreamDelayMs = 400
let upstream: MockUpstream
let slow: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startMockUpstream(request => openaiMock(request))
  slow = await startMockUpstream(async (request) => {
    await new Promise(resolve => setTimeout(resolve, upstreamDelayMs))
    return openaiMock(request)
  })
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'compat-provider': [
      { name: 'mock', 'base-url': `${upstream.url}/v1`, models: [{ name: 'mock-gpt', alias: 'm' }] },
      { name: 'slow', 'base-url': `${slow.url}/v1`, models: [{ name: 'mock-gpt', alias: 'slow' }] },
    ],
  })
})
afterAll(async () => {
  await proxy.close()
  await Promise.all([upstream.close(), slow.close()])
})

const post = (path: string, body: Record<string, unknown>, headers: Record<string, string> = { authorization: 'Bearer k' }) =>
  fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

function overhead(response: Response): number {
  const value = response.headers.get('x-proxy-overhead-ms')
  expect(value).toMatch(/^\d+\.\d{2}$/)
  return Number(value)
}

describe('X-Proxy-Overhead-Ms', () => {
  it('is on non-stream, stream and translated answers: a small non-negative number of milliseconds', async () => {
    const plain = await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(plain.status).toBe(200)
    expect(overhead(plain)).toBeLessThan(1000)
    await plain.text()
    const stream = await post('/v1/chat/completions', { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] })
    expect(stream.headers.get('content-type')).toContain('text/event-stream')
    expect(overhead(stream)).toBeLessThan(1000)
    await stream.text()
    // messages client -> chat upstream: the translating path.
    const translated = await post('/v1/messages', { model: 'm', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': 'k' })
    expect(translated.status).toBe(200)
    expect(overhead(translated)).toBeLessThan(1000)
    await translated.text()
  })

  it('is on errors of proxied requests too (unknown model)', async () => {
    const missing = await post('/v1/chat/completions', { model: 'nope', messages: [{ role: 'user', content: 'hi' }] })
    expect(missing.status).toBe(404)
    expect(overhead(missing)).toBeGreaterThanOrEqual(0)
  })

  it('leaves out the time spent waiting for the upstream', async () => {
    for (const stream of [false, true]) {
      const started = performance.now()
      const response = await post('/v1/chat/completions', { model: 'slow', stream, messages: [{ role: 'user', content: 'hi' }] })
      await response.text()
      const elapsed = performance.now() - started
      expect(elapsed).toBeGreaterThanOrEqual(upstreamDelayMs)
      // The upstream's 400 ms are not the proxy's: what is left is far below them.
      expect(overhead(response)).toBeLessThan(upstreamDelayMs / 2)
    }
  })
})
