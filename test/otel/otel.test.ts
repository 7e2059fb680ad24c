import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

// OTLP span kinds and status codes as the JSON export numbers them.
const SERVER = 2
const CLIENT = 3
const ERROR = 2

let upstream: MockUpstream
let receiver: OtlpReceiver
/** Upstream keys that answer 503 (the next credential then serves). */
let failing = new Set<string>()
const proxies: TestProxy[] = []

beforeAll(async () => {
  upstream = await startMockUpstream((request) => {
    const key = (request.headers.get('authorization') ?? '').replace('Bearer ', '')
    if (failing.has(key)) return new Response(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }), { status: 503, headers: { 'content-type': 'application/json' } })
    return openaiMock(request)
  })
  receiver = await startOtlpReceiver()
})
afterEach(async () => {
  failing = new Set()
  receiver.spans.length = 0
  receiver.status = 200
  await Promise.all(proxies.splice(0).map(proxy => proxy.close()))
})
afterAll(async () => {
  await upstream.close()
  await receiver.close()
})

async function proxyWith(config: Record<string, unknown>) {
  const proxy = await startTestProxy({
    'api-keys': ['client'],
    'request-retry': 2,
    routing: { strategy: 'fill-first' },
    'compat-provider': [{ name: 'pool', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'key-a' }, { 'api-key': 'key-b' }], models: [{ name: 'up-model', alias: 'm' }] }],
    ...config,
  })
  proxies.push(proxy)
  return proxy
}

const clientOf = (proxy: TestProxy, headers: Record<string, string> = {}) => new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'client', maxRetries: 0, defaultHeaders: headers })

/** Closing the proxy flushes the batch: every span it made has reached the receiver when this resolves. */
async function flushed(proxy: TestProxy) {
  proxies.splice(proxies.indexOf(proxy), 1)
  await proxy.close()
  return receiver.spans
}

describe('OpenTelemetry traces (docs/otel.md)', () => {
  it('a retried request: a server span, a failed and an answering attempt on two credentials, GenAI attributes', async () => {
    const proxy = await proxyWith({ otel: { endpoint: receiver.url, 'service-name': 'proxy-under-test' } })
    failing = new Set(['key-a'])
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
    const answer = await clientOf(proxy, { traceparent: parent }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(answer.choices[0]!.finish_reason).toBe('stop')

    const spans = await flushed(proxy)
    expect(receiver.paths.every(path => path === '/v1/traces')).toBe(true)
    const server = spans.find(span => span.kind === SERVER)!
    const attempts = spans.filter(span => span.kind === CLIENT).sort((a, b) => Number(a.attributes['proxy.attempt.number']) - Number(b.attributes['proxy.attempt.number']))
    expect(spans).toHaveLength(3)
    expect(server.service).toBe('proxy-under-test')
    // The client's trace continues through the proxy.
    expect(server.traceId).toBe('0af7651916cd43dd8448eb211c80319c')
    expect(server.parentSpanId).toBe('b7ad6b7169203331')
    expect(server.name).toBe('chat m')
    expect(server.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'm',
      'gen_ai.response.model': 'up-model',
      'gen_ai.provider.name': 'pool',
      'gen_ai.response.finish_reasons': ['stop'],
      'http.response.status_code': 200,
      'proxy.attempts': 2,
      'proxy.routing.failover': true,
      'proxy.routing.fallback': false,
      'proxy.client.format': 'chat',
    })
    expect(server.attributes['gen_ai.usage.input_tokens']).toBe(answer.usage!.prompt_tokens)
    expect(server.attributes['gen_ai.usage.output_tokens']).toBe(answer.usage!.completion_tokens)
    expect(server.events.map(event => event.name)).toEqual(['retry'])

    expect(attempts.map(span => span.parentSpanId)).toEqual([server.spanId, server.spanId])
    expect(attempts.every(span => span.traceId === server.traceId)).toBe(true)
    const [failed, served] = attempts as [typeof attempts[0], typeof attempts[0]]
    expect(failed.status.code).toBe(ERROR)
    expect(failed.attributes).toMatchObject({ 'http.response.status_code': 503, 'error.type': '503', 'proxy.attempt.action': 'retry', 'server.address': '127.0.0.1' })
    expect(served.status.code).not.toBe(ERROR)
    expect(served.attributes).toMatchObject({ 'http.response.status_code': 200, 'proxy.attempt.action': 'done', 'gen_ai.request.model': 'up-model', 'gen_ai.usage.output_tokens': answer.usage!.completion_tokens })
    // Two different credentials, named by id, never by secret.
    expect(failed.attributes['proxy.credential.id']).not.toBe(served.attributes['proxy.credential.id'])
    expect(JSON.stringify(spans)).not.toContain('key-a')
    expect(JSON.stringify(spans)).not.toContain('key-b')
  })

  it('a translated stream (messages client, chat upstream) ends its spans with the stream, with its usage', async () => {
    const proxy = await proxyWith({ otel: { endpoint: `${receiver.url}/v1/traces` } })
    const client = new Anthropic({ baseURL: proxy.url, apiKey: 'client', maxRetries: 0 })
    const stream = client.messages.stream({ model: 'm', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })
    const message = await stream.finalMessage()
    const spans = await flushed(proxy)
    const server = spans.find(span => span.kind === SERVER)!
    expect(spans.filter(span => span.kind === CLIENT)).toHaveLength(1)
    expect(server.attributes).toMatchObject({ 'proxy.stream': true, 'proxy.client.format': 'messages', 'proxy.attempts': 1, 'proxy.routing.failover': false, 'gen_ai.usage.output_tokens': message.usage.output_tokens })
    expect(message.usage.output_tokens).toBeGreaterThan(0)
  })

  it('a request every credential fails: both spans in error, the client gets its 503', async () => {
    const proxy = await proxyWith({ otel: { endpoint: receiver.url } })
    failing = new Set(['key-a', 'key-b'])
    await expect(clientOf(proxy).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 503 })
    const spans = await flushed(proxy)
    const server = spans.find(span => span.kind === SERVER)!
    expect(server.status.code).toBe(ERROR)
    expect(server.attributes).toMatchObject({ 'http.response.status_code': 503, 'error.type': '503' })
    expect(server.attributes['gen_ai.response.model']).toBeUndefined()
    expect(spans.filter(span => span.kind === CLIENT).map(span => span.status.code)).toEqual([ERROR, ERROR])
  })

  it('a collector that is down or refuses never fails a request; the log says spans were not delivered', async () => {
    receiver.status = 400
    const refusing = await proxyWith({ otel: { endpoint: receiver.url } })
    const closed = await startOtlpReceiver()
    await closed.close()
    const down = await proxyWith({ otel: { endpoint: closed.url } })
    // The test logger is shared and silent: listen to its warnings for this test only.
    const logger = refusing.proxy.kernel.logger
    const quiet = logger.warn
    const warnings: string[] = []
    logger.warn = ((message: string) => { warnings.push(message) }) as typeof logger.warn
    try {
      for (const proxy of [refusing, down]) {
        const answer = await clientOf(proxy).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
        expect(answer.choices[0]!.message.content).toBeTruthy()
      }
      await flushed(refusing)
      await flushed(down)
    } finally {
      logger.warn = quiet
    }
    expect(receiver.paths.length).toBeGreaterThan(0)
    expect(warnings.some(line => line.includes(`not delivered to ${receiver.url}/v1/traces`))).toBe(true)
    expect(warnings.some(line => line.includes(`not delivered to ${closed.url}/v1/traces`))).toBe(true)
  })

  it('a reload turns tracing on and off live', async () => {
    const proxy = await proxyWith({})
    const { kernel } = proxy.proxy
    const count = () => ((kernel.hooks as any)._hooks['before-upstream'] ?? []).length
    const off = count()
    const ask = () => clientOf(proxy).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    await ask()
    await kernel.applyConfig({ ...kernel.config, otel: { endpoint: receiver.url } } as never)
    expect(count()).toBe(off + 1)
    await ask()
    await kernel.applyConfig({ ...kernel.config, otel: {} } as never)
    // Turning it off sends what was queued, and the request path is back to no listener.
    expect(count()).toBe(off)
    await ask()
    await flushed(proxy)
    expect(receiver.spans.filter(span => span.kind === SERVER)).toHaveLength(1)
  })

  it('off without an endpoint: no listener on the request path', async () => {
    const listeners = (proxy: TestProxy) => ['route-resolve', 'before-upstream', 'attempt-result', 'after-response']
      .map(name => ((proxy.proxy.kernel.hooks as any)._hooks[name] ?? []).filter((fn: any) => proxy.proxy.kernel.hooks.ownerOf(fn) === 'plugin "otel"').length)
    const off = await proxyWith({})
    const on = await proxyWith({ otel: { endpoint: receiver.url } })
    const disabled = await proxyWith({ otel: { endpoint: receiver.url, enable: false } })
    expect(listeners(off)).toEqual([0, 0, 0, 0])
    expect(listeners(disabled)).toEqual([0, 0, 0, 0])
    expect(listeners(on)).toEqual([1, 1, 1, 1])
  })
})
