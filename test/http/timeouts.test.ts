import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

let upstream: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  // Key 'hang' never answers; key 'stall' sends one chunk and then nothing; others answer normally.
  upstream = await startMockUpstream((request) => {
    const key = request.headers.get('authorization')
    if (key === 'Bearer hang') return new Promise<Response>(() => {})
    if (key === 'Bearer stall') {
      return new Response(new ReadableStream({ start(controller) { controller.enqueue(new TextEncoder().encode('data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"partial"},"finish_reason":null}]}\n\n')) } }), { headers: { 'content-type': 'text/event-stream' } })
    }
    return openaiMock(request)
  })
  proxy = await startTestProxy({
    'api-keys': ['k'],
    timeouts: { 'first-byte-seconds': 1, 'stream-idle-seconds': 1 },
    'compat-provider': [
      { name: 'hanging', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'hang' }, { 'api-key': 'fine' }], models: [{ name: 'mock-gpt', alias: 'failover' }] },
      { name: 'stalling', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'stall' }], models: [{ name: 'mock-gpt', alias: 'stall' }] },
    ],
  })
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

const chat = (model: string, stream = false) => fetch(`${proxy.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
  body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'x' }] }),
})

describe('upstream timeouts', () => {
  it('an upstream that never answers is abandoned after first-byte-seconds and the next key serves', async () => {
    const started = Date.now()
    const response = await chat('failover')
    expect(response.status).toBe(200)
    expect(Date.now() - started).toBeLessThan(4000)
    expect(upstream.requests.map(r => r.headers.authorization)).toEqual(expect.arrayContaining(['Bearer hang', 'Bearer fine']))
  })

  it('a stream that goes quiet past stream-idle-seconds ends with an error event and a clean end', async () => {
    const started = Date.now()
    const text = await (await chat('stall', true)).text()
    expect(Date.now() - started).toBeLessThan(4000)
    expect(text).toContain('partial')
    expect(text).toMatch(/data: \{"error":\{"message":"upstream stream failed: /)
    expect(text.trim().endsWith('data: [DONE]')).toBe(true)
  })
})
