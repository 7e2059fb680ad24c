import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

let upstream: MockUpstream
const proxies: TestProxy[] = []
beforeAll(async () => { upstream = await startMockOpenAI() })
afterEach(async () => {
  upstream.handler = request => openaiMock(request)
  await Promise.all(proxies.splice(0).map(proxy => proxy.close()))
})
afterAll(() => upstream.close())

async function proxyWith(config: Record<string, unknown>, headers: Record<string, string> = {}) {
  const proxy = await startTestProxy({ 'api-keys': ['k'], 'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, headers, models: [{ name: 'mock-gpt', alias: '' }] }], ...config })
  proxies.push(proxy)
  return proxy
}
const chat = (proxy: TestProxy, stream = false) => fetch(`${proxy.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'mock-gpt', stream, messages: [{ role: 'user', content: 'x' }] }),
})

/** An upstream that waits, drips chunks slowly, and sets headers a client may or may not see. */
function slowUpstream(firstDelayMs: number, gapMs: number) {
  upstream.handler = async (request) => {
    const body = await request.json() as { stream?: boolean }
    await new Promise(resolve => setTimeout(resolve, firstDelayMs))
    const headers = { 'x-request-id': 'req-123', 'x-ratelimit-remaining-requests': '99', 'set-cookie': 'secret=1', authorization: 'Bearer leak' }
    if (!body.stream) return new Response(JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'mock-gpt', choices: [{ index: 0, message: { role: 'assistant', content: 'late' }, finish_reason: 'stop' }] }), { headers: { ...headers, 'content-type': 'application/json' } })
    const encoder = new TextEncoder()
    const frame = (content: string) => encoder.encode(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'mock-gpt', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`)
    return new Response(new ReadableStream({
      async start(controller) {
        controller.enqueue(frame('a'))
        await new Promise(resolve => setTimeout(resolve, gapMs))
        controller.enqueue(frame('b'))
        controller.enqueue(encoder.encode('data: [DONE]\n\n'))
        controller.close()
      },
    }), { headers: { ...headers, 'content-type': 'text/event-stream' } })
  }
}

describe('headers (rules 14, 15)', () => {
  it('entry headers reach the upstream', async () => {
    const proxy = await proxyWith({}, { 'x-team': 'blue' })
    await chat(proxy)
    expect(upstream.requests.at(-1)!.headers['x-team']).toBe('blue')
  })

  it('passthrough-headers forwards filtered upstream headers, never Authorization or Set-Cookie', async () => {
    slowUpstream(0, 0)
    const off = await chat(await proxyWith({}))
    // off: our own request id, not the upstream's
    expect(off.headers.get('x-request-id')).not.toBe('req-123')
    expect(off.headers.get('x-ratelimit-remaining-requests')).toBeNull()
    for (const stream of [false, true]) {
      const response = await chat(await proxyWith({ 'passthrough-headers': true }), stream)
      expect(response.headers.get('x-request-id')).toBe('req-123')
      expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('99')
      expect(response.headers.get('set-cookie')).toBeNull()
      expect(response.headers.get('authorization')).toBeNull()
      expect(response.headers.get('content-type')).toBe(stream ? 'text/event-stream' : 'application/json')
      await response.text()
    }
  })
})

describe('keep-alives', () => {
  it('streaming.keepalive-seconds sends : keep-alive between events while the stream is quiet', async () => {
    slowUpstream(0, 2600)
    const response = await chat(await proxyWith({ streaming: { 'keepalive-seconds': 1 } }), true)
    const text = await response.text()
    const keepalives = text.split(': keep-alive\n\n').length - 1
    expect(keepalives).toBeGreaterThanOrEqual(2)
    expect(text.indexOf(': keep-alive')).toBeGreaterThan(text.indexOf('"a"'))
    expect(text.indexOf(': keep-alive')).toBeLessThan(text.indexOf('"b"'))
  })

  it('keepalive-seconds 0 sends none', async () => {
    slowUpstream(0, 1200)
    const text = await (await chat(await proxyWith({}), true)).text()
    expect(text).not.toContain('keep-alive')
  })

  it('nonstream-keepalive-interval sends blank lines while waiting; the body stays valid JSON', async () => {
    slowUpstream(2300, 0)
    const response = await chat(await proxyWith({ 'nonstream-keepalive-interval': 1 }))
    const text = await response.text()
    expect(text.match(/^\n+/)![0].length).toBeGreaterThanOrEqual(2)
    expect(JSON.parse(text).choices[0].message.content).toBe('late')
  })

  it('an answer ready before the interval goes out unchanged', async () => {
    const response = await chat(await proxyWith({ 'nonstream-keepalive-interval': 5 }))
    expect((await response.text()).startsWith('{')).toBe(true)
  })
})
