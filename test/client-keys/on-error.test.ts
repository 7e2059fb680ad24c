import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import { defineProxyPlugin, type ProxyKernel } from 'model-proxy'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startOwnRedis, type OwnRedis } from '../helpers/redis-server.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'
import { startLoggedProxy, type LoggedProxy } from './logged-proxy.ts'

/**
 * `client-key-policy.on-error`: what a named key's limits do when they cannot be checked: the shared
 * store (a Redis of the test's own) is unreachable, or the check itself fails. `open` (the default)
 * serves; `closed` answers 503 with Retry-After to keys that have limits, and serves the others.
 */
let upstream: MockUpstream
let redis: OwnRedis
let proxy: LoggedProxy

/** A price table that fails for one model: the check of a request for it throws. */
const brokenPrices = defineProxyPlugin({
  name: 'broken-prices',
  setup(kernel) {
    const real = kernel.services.prices!
    kernel.services.prices = { ...real, price: (model, upstreamModel) => {
      if (model === 'boom') throw new Error('price table unreadable')
      return real.price(model, upstreamModel)
    } }
  },
})

beforeAll(async () => {
  upstream = await startMockOpenAI()
  redis = await startOwnRedis()
  const storage = await createProxyStorage({ driver: 'redis', url: redis.url, base: `key-policy-on-error-${process.pid}-${Date.now()}` })
  proxy = await startLoggedProxy({
    'api-keys': ['plain-dev-key'],
    'request-retry': 0,
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt', alias: 'm' }, { name: 'mock-gpt', alias: 'boom' }] }],
    'model-prices': { m: { input: 1, output: 1 }, boom: { input: 1, output: 1 } },
    'client-keys': [
      { name: 'limited', key: 'limited-key-1', rpm: 1000 },
      { name: 'free-range', key: 'free-range-key-1' },
    ],
  }, [brokenPrices], storage)
}, 60_000)
afterAll(async () => {
  await proxy?.close()
  await redis?.close()
  await upstream?.close()
})

const setOnError = (kernel: ProxyKernel, mode: 'open' | 'closed') => kernel.applyConfig({ ...kernel.config, 'client-key-policy': { 'on-error': mode, 'unpriced-models': 'refuse' } })
const send = async (key: string, model = 'm') => {
  const response = await fetch(`${proxy.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  })
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() as any }
}

describe('client-key-policy.on-error', () => {
  it('defaults to open; with the store up both modes serve every key', async () => {
    expect(proxy.proxy.kernel.config['client-key-policy']).toEqual({ 'on-error': 'open', 'unpriced-models': 'refuse' })
    for (const mode of ['open', 'closed'] as const) {
      await setOnError(proxy.proxy.kernel, mode)
      for (const key of ['limited-key-1', 'free-range-key-1', 'plain-dev-key']) expect((await send(key)).status).toBe(200)
    }
  })

  it('a failing check: open serves (and logs), closed answers 503 in the client\'s format', async () => {
    await setOnError(proxy.proxy.kernel, 'open')
    expect((await send('limited-key-1', 'boom')).status).toBe(200)
    expect(proxy.lines.some(line => line.includes('client-key check failed: price table unreadable'))).toBe(true)
    await setOnError(proxy.proxy.kernel, 'closed')
    const refused = await send('limited-key-1', 'boom')
    expect(refused.status).toBe(503)
    expect(refused.retryAfter).toBe('5')
    expect(refused.body.error).toMatchObject({ type: 'server_error', code: 'limits_unavailable' })
    // The OpenAI SDK sees an ordinary, retryable server error.
    const sdk = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'limited-key-1', maxRetries: 0 })
    await expect(sdk.chat.completions.create({ model: 'boom', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 503, code: 'limits_unavailable' })
    // A key without limits has nothing to check: served.
    expect((await send('free-range-key-1', 'boom')).status).toBe(200)
  })

  it('the shared store away: closed refuses keys with limits and serves the rest; open counts per instance and serves', async () => {
    await redis.stop()
    await setOnError(proxy.proxy.kernel, 'closed')
    const refused = await send('limited-key-1')
    expect(refused.status).toBe(503)
    expect(refused.body.error.message).toContain('cannot be checked')
    expect((await send('limited-key-1')).status).toBe(503)
    expect((await send('free-range-key-1')).status).toBe(200)
    expect((await send('plain-dev-key')).status).toBe(200)
    await setOnError(proxy.proxy.kernel, 'open')
    expect((await send('limited-key-1')).status).toBe(200)
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text()
    // Two refusals of a failing check, two of the store away.
    expect(metrics).toMatch(/proxy_client_key_rejections_total\{key="limited",reason="unavailable"\} 4/)
    expect(metrics).toMatch(/proxy_client_key_limits_local 1/)
  })
})
