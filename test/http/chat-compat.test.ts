import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

let upstream: MockUpstream
let proxy: TestProxy
let client: OpenAI

beforeAll(async () => {
  upstream = await startMockOpenAI()
  proxy = await startTestProxy({
    'api-keys': ['sk-client-1', 'sk-client-2'],
    'compat-provider': [{
      name: 'mock',
      'base-url': `${upstream.url}/v1`,
      'api-key-entries': [{ 'api-key': 'upstream-secret' }],
      models: [{ name: 'mock-gpt', alias: 'fast' }, { name: 'mock-gpt', alias: '' }],
      headers: { 'x-custom': 'yes' },
    }],
  })
  client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-client-1', maxRetries: 0 })
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

describe('OpenAI SDK through the proxy to a compat upstream', () => {
  it('answers a non-stream chat with content, finish_reason and usage', async () => {
    const completion = await client.chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'ping' }] })
    expect(completion.model).toBe('fast')
    expect(completion.choices[0]!.message.content).toBe('Hello from the playground mock upstream. You said: ping')
    expect(completion.choices[0]!.finish_reason).toBe('stop')
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens)
    const sent = upstream.requests.at(-1)!
    expect(JSON.parse(sent.body).model).toBe('mock-gpt')
    expect(sent.headers.authorization).toBe('Bearer upstream-secret')
    expect(sent.headers['x-custom']).toBe('yes')
  })

  it('streams deltas and ends with a finish reason', async () => {
    const stream = await client.chat.completions.create({ model: 'mock-gpt', messages: [{ role: 'user', content: 'stream me' }], stream: true, stream_options: { include_usage: true } })
    let text = ''
    let finish: string | null = null
    let usage
    let chunks = 0
    for await (const chunk of stream) {
      chunks++
      expect(chunk.model).toBe('mock-gpt')
      text += chunk.choices[0]?.delta.content ?? ''
      finish = chunk.choices[0]?.finish_reason ?? finish
      usage = chunk.usage ?? usage
    }
    expect(chunks).toBeGreaterThan(3)
    expect(text).toBe('Hello from the playground mock upstream. You said: stream me')
    expect(finish).toBe('stop')
    expect(usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) })
  })

  it('passes tool calls through intact, streaming and not', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'weather', parameters: { type: 'object', properties: { query: { type: 'string' } } } } }]
    const completion = await client.chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'get_weather in Paris' }], tools })
    const call = completion.choices[0]!.message.tool_calls![0]!
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls')
    expect(call.type === 'function' && call.function.name).toBe('get_weather')
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ query: 'get_weather in Paris' })
    expect(JSON.parse(upstream.requests.at(-1)!.body).tools).toEqual(tools)

    const runner = client.chat.completions.stream({ model: 'fast', messages: [{ role: 'user', content: 'get_weather in Rome' }], tools })
    const final = await runner.finalChatCompletion()
    const streamed = final.choices[0]!.message.tool_calls![0]!
    expect(streamed.id).toMatch(/^call_mock_/)
    expect(streamed.type === 'function' && JSON.parse(streamed.function.arguments)).toEqual({ query: 'get_weather in Rome' })
    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
  })

  it('lists the models clients may use', async () => {
    const ids = (await client.models.list()).data.map(model => model.id)
    expect(ids).toEqual(['fast', 'mock-gpt'])
  })
})

describe('errors in the spec shape', () => {
  const post = (body: string, headers: Record<string, string> = { authorization: 'Bearer sk-client-1' }) =>
    fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

  it.each([
    ['no key', {}],
    ['a wrong key', { authorization: 'Bearer nope' }],
    ['a wrong x-api-key', { 'x-api-key': 'nope' }],
  ])('401 with %s', async (_name, headers) => {
    const response = await post('{"model":"fast","messages":[]}', headers)
    expect(response.status).toBe(401)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const body = await response.json()
    expect(body.error).toMatchObject({ type: 'authentication_error', message: expect.any(String), code: expect.any(String) })
    // Each SDK sends its key its own way: the message names every form the proxy reads.
    if (_name === 'no key') expect(body.error.message).toMatch(/Authorization: Bearer.*x-api-key.*x-goog-api-key/)
  })

  it.each([
    ['x-api-key', { 'x-api-key': 'sk-client-2' }],
    ['x-goog-api-key', { 'x-goog-api-key': 'sk-client-2' }],
  ])('accepts the key as %s', async (_name, headers) => {
    const response = await post('{"model":"fast","messages":[{"role":"user","content":"x"}]}', headers)
    expect(response.status).toBe(200)
  })

  it('accepts the key as ?key=', async () => {
    const response = await fetch(`${proxy.url}/v1/models?key=sk-client-2`)
    expect(response.status).toBe(200)
  })

  it('400 invalid_request_error without model', async () => {
    const response = await post('{"messages":[{"role":"user","content":"x"}]}')
    expect(response.status).toBe(400)
    expect((await response.json()).error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('model') })
  })

  it('400 on malformed JSON, and the server keeps serving', async () => {
    const response = await post('{"model": ')
    expect(response.status).toBe(400)
    expect((await response.json()).error.message).toMatch(/not valid JSON/)
    expect((await post('{"model":"fast","messages":[{"role":"user","content":"x"}]}')).status).toBe(200)
  })

  it('404 JSON for an unknown route and for an unknown model', async () => {
    const route = await fetch(`${proxy.url}/v2/whatever`)
    expect(route.status).toBe(404)
    expect((await route.json()).error.message).toMatch(/no route/)
    const model = await post('{"model":"nope","messages":[{"role":"user","content":"x"}]}')
    expect(model.status).toBe(404)
    expect((await model.json()).error.code).toBe('model_not_found')
  })

  it('answers a CORS preflight', async () => {
    const response = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS')
    expect(response.headers.get('access-control-allow-headers')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toContain('x-proxy-dropped')
  })

  it('an upstream error reaches the client without the upstream credential', async () => {
    const saved = upstream.handler
    upstream.handler = () => new Response(JSON.stringify({ error: { message: 'bad request: upstream-secret is wrong', type: 'invalid_request_error' } }), { status: 400 })
    try {
      const response = await post('{"model":"fast","messages":[{"role":"user","content":"x"}]}')
      expect(response.status).toBe(400)
      const text = await response.text()
      expect(text).toContain('invalid_request_error')
      expect(text).not.toContain('upstream-secret')
    } finally {
      upstream.handler = saved
    }
  })
})

describe('streams', () => {
  it('a client that disconnects aborts its upstream request', async () => {
    const saved = upstream.handler
    // An upstream that sends one chunk and then stays open, like a slow model.
    upstream.handler = () => new Response(new ReadableStream({
      start(controller) { controller.enqueue(new TextEncoder().encode('data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"mock-gpt","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}\n\n')) },
    }), { headers: { 'content-type': 'text/event-stream' } })
    try {
      const controller = new AbortController()
      const response = await fetch(`${proxy.url}/v1/chat/completions`, {
        method: 'POST',
        signal: controller.signal,
        headers: { authorization: 'Bearer sk-client-1', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fast', stream: true, messages: [{ role: 'user', content: 'x' }] }),
      })
      const reader = response.body!.getReader()
      const first = await reader.read()
      expect(new TextDecoder().decode(first.value)).toContain('"hi"')
      const started = Date.now()
      controller.abort()
      await upstream.closedMidResponse
      expect(Date.now() - started).toBeLessThan(1000)
    } finally {
      upstream.handler = saved
    }
  })
})
