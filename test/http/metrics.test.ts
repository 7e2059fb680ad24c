import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

let good: MockUpstream
let flaky: MockUpstream
let proxy: TestProxy
let other: TestProxy
const secret = 'metrics-mgmt-secret'

beforeAll(async () => {
  good = await startMockUpstream(request => openaiMock(request))
  flaky = await startMockUpstream(() => new Response(JSON.stringify({ error: { message: 'boom', type: 'server_error' } }), { status: 500, headers: { 'content-type': 'application/json' } }))
  const config = {
    'api-keys': ['client-k'],
    'remote-management': { 'secret-key': secret },
    routing: { strategy: 'fill-first' },
    'compat-provider': [
      // Tried first (higher priority), always 500: every request fails over to `good`.
      { name: 'flaky', 'base-url': `${flaky.url}/v1`, 'api-key-entries': [{ 'api-key': 'up-flaky' }], models: [{ name: 'mock-gpt', alias: 'm' }], priority: 1 },
      { name: 'good', 'base-url': `${good.url}/v1`, 'api-key-entries': [{ 'api-key': 'up-good-1' }, { 'api-key': 'up-good-2' }], models: [{ name: 'mock-gpt', alias: 'm' }] },
    ],
  }
  proxy = await startTestProxy(config)
  other = await startTestProxy(config)
})
afterAll(async () => {
  await Promise.all([proxy.close(), other.close()])
  await Promise.all([good.close(), flaky.close()])
})

const chat = (base: string, body: Record<string, unknown>) => fetch(`${base}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client-k', 'content-type': 'application/json' }, body: JSON.stringify(body),
})

/** Value of one sample line, `name{labels} value`; labels given in any order. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const inside = /\{(.*)\}/.exec(line)?.[1] ?? ''
    if (Object.entries(labels).every(([key, value]) => inside.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return undefined
}

describe('GET /metrics', () => {
  it('counts requests, tokens, latency, retries, failovers and credential states, in the Prometheus text format', async () => {
    const response = await chat(proxy.url, { model: 'm', messages: [{ role: 'user', content: 'hello there' }] })
    expect(response.status).toBe(200)
    const answer = await response.json()
    const stream = await chat(proxy.url, { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] })
    expect(stream.status).toBe(200)
    await stream.text()
    expect((await chat(proxy.url, { model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] })).status).toBe(404)
    const routing = proxy.proxy.kernel.services.routingState!
    routing.block('compat:good:1.1', 'test')

    const scrape = await fetch(`${proxy.url}/metrics`)
    expect(scrape.status).toBe(200)
    expect(scrape.headers.get('content-type')).toContain('text/plain')
    const text = await scrape.text()
    expect(text).toContain('# TYPE proxy_requests_total counter')
    expect(sample(text, 'proxy_requests_total', { endpoint: '/v1/chat/completions', model: 'm', provider: 'good', status: '200' })).toBe(2)
    // A client's made-up model name never becomes a label.
    expect(sample(text, 'proxy_requests_total', { model: 'unknown', provider: 'none', status: '404' })).toBe(1)
    expect(text).not.toContain('no-such-model')
    const usage = answer.usage as { prompt_tokens: number; completion_tokens: number }
    expect(sample(text, 'proxy_tokens_total', { model: 'm', provider: 'good', type: 'input' })).toBeGreaterThanOrEqual(usage.prompt_tokens)
    expect(sample(text, 'proxy_tokens_total', { model: 'm', provider: 'good', type: 'output' })).toBeGreaterThanOrEqual(usage.completion_tokens)
    expect(sample(text, 'proxy_upstream_retries_total', { provider: 'flaky', status: '500' })).toBe(2)
    expect(sample(text, 'proxy_failovers_total', { from_provider: 'flaky', to_provider: 'good' })).toBe(2)
    expect(sample(text, 'proxy_upstream_first_byte_seconds_count', { provider: 'good' })).toBe(2)
    expect(sample(text, 'proxy_upstream_first_byte_seconds_count', { provider: 'flaky' })).toBe(2)
    expect(sample(text, 'proxy_upstream_duration_seconds_count', { provider: 'good' })).toBe(2)
    expect(sample(text, 'proxy_upstream_duration_seconds_bucket', { provider: 'good', le: '+Inf' })).toBe(2)
    expect(sample(text, 'proxy_credentials', { provider: 'good', state: 'ready' })).toBe(1)
    expect(sample(text, 'proxy_credentials', { provider: 'good', state: 'blocked' })).toBe(1)
    expect(sample(text, 'proxy_credentials', { provider: 'flaky', state: 'ready' })).toBe(1)
    expect(sample(text, 'proxy_credentials', { provider: 'flaky', state: 'cooldown' })).toBe(0)
    // Read at scrape time: unblocking shows on the next scrape.
    routing.unblock('compat:good:1.1')
    expect(sample(await (await fetch(`${proxy.url}/metrics`)).text(), 'proxy_credentials', { provider: 'good', state: 'ready' })).toBe(2)
  })

  it('keeps one registry per proxy: two proxies in one process do not share counts', async () => {
    const text = await (await fetch(`${other.url}/metrics`)).text()
    expect(text).toContain('# TYPE proxy_requests_total counter')
    expect(sample(text, 'proxy_requests_total', { model: 'm' })).toBeUndefined()
    expect(sample(text, 'proxy_credentials', { provider: 'good', state: 'ready' })).toBe(2)
  })

  it('require-key: the management key is needed; enable and path are live settings', async () => {
    const kernel = proxy.proxy.kernel
    const saved = kernel.config
    try {
      await kernel.applyConfig({ ...saved, metrics: { enable: true, path: '/metrics', 'require-key': true } } as never)
      const missing = await fetch(`${proxy.url}/metrics`)
      expect(missing.status).toBe(401)
      expect(await missing.json()).toEqual({ error: 'missing management key' })
      expect((await fetch(`${proxy.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
      // A client API key is not the management key.
      expect((await fetch(`${proxy.url}/metrics`, { headers: { authorization: 'Bearer client-k' } })).status).toBe(401)
      expect((await fetch(`${proxy.url}/metrics`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200)
      expect((await fetch(`${proxy.url}/metrics`, { headers: { 'x-management-key': secret } })).status).toBe(200)

      await kernel.applyConfig({ ...saved, metrics: { enable: true, path: '/internal/prom', 'require-key': false } } as never)
      expect((await fetch(`${proxy.url}/metrics`)).status).toBe(404)
      expect(await (await fetch(`${proxy.url}/internal/prom`)).text()).toContain('proxy_requests_total')

      await kernel.applyConfig({ ...saved, metrics: { enable: false, path: '/metrics', 'require-key': false } } as never)
      expect((await fetch(`${proxy.url}/metrics`)).status).toBe(404)
    } finally {
      await kernel.applyConfig(saved)
    }
  })

  it('require-key auto (the default): loopback scrapers as they are, remote ones need the management key', async () => {
    const kernel = proxy.proxy.kernel
    expect(kernel.config.metrics).toMatchObject({ 'require-key': 'auto' })
    expect((await fetch(`${proxy.url}/metrics`)).status).toBe(200)
    const saved = kernel.services.clientAddress
    kernel.services.clientAddress = () => '203.0.113.5'
    try {
      expect((await fetch(`${proxy.url}/metrics`)).status).toBe(401)
      expect((await fetch(`${proxy.url}/metrics`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200)
    } finally {
      kernel.services.clientAddress = saved
    }
  })

  it('rejects a bad metrics config with the path named', async () => {
    const kernel = proxy.proxy.kernel
    await expect(kernel.applyConfig({ ...kernel.config, metrics: { path: 'no-slash' } } as never)).rejects.toThrow(/metrics\.path: must be a path starting with \//)
  })
})

describe('GET /metrics: model labels stay bounded', () => {
  it('a name a scenario rule serves by pattern is no label ("unknown"); a fallbacks key, an alias are', async () => {
    // `claude-*` matched every name a client made up: each became a series of its own, as long as it was sent.
    const routed = await startTestProxy({
      'api-keys': ['client-k'],
      routing: { rules: [{ models: ['claude-*'], model: 'm' }] },
      fallbacks: { legacy: ['m'] },
      'compat-provider': [{ name: 'good', 'base-url': `${good.url}/v1`, 'api-key-entries': [{ 'api-key': 'up-good-1' }], models: [{ name: 'mock-gpt', alias: 'm' }] }],
    })
    try {
      const made = ['claude-made-up-1', 'claude-made-up-2', `claude-${'x'.repeat(5000)}`]
      for (const model of [...made, 'legacy', 'm']) expect((await chat(routed.url, { model, messages: [{ role: 'user', content: 'hi' }] })).status, model).toBe(200)
      const text = await (await fetch(`${routed.url}/metrics`)).text()
      for (const model of made) expect(text).not.toContain(model)
      expect(sample(text, 'proxy_requests_total', { model: 'unknown', provider: 'good', status: '200' })).toBe(3)
      expect(sample(text, 'proxy_requests_total', { model: 'legacy', provider: 'good', status: '200' })).toBe(1)
      expect(sample(text, 'proxy_requests_total', { model: 'm', provider: 'good', status: '200' })).toBe(1)
      expect(sample(text, 'proxy_tokens_total', { model: 'unknown', provider: 'good', type: 'input' })).toBeGreaterThan(0)
    } finally {
      await routed.close()
    }
  })
})
