import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dropRedisKeys } from '../helpers/redis-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startUsageUpstream, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'

/**
 * A request that allows an absurd output (`max_tokens: 1e25`) reserves that much, on Redis as on one
 * instance: while it is in flight the key's tpm and budget are taken, and the next request is refused.
 * Its reservation went into Redis as `1e+25` (how JavaScript writes a number past 1e21), which the
 * scripts' digit pattern did not read: on Redis the reservation counted for nothing.
 */
const secret = 'huge-estimate-admin'
const base = `proxy-huge-estimate-${process.pid}-${Date.now()}`
let upstream: UsageUpstream
const proxies: Record<string, TestProxy> = {}

beforeAll(async () => {
  // Five frames, 100 ms apart: the first request is in flight while the second is asked.
  upstream = await startUsageUpstream({ frameDelayMs: 100 })
  for (const driver of ['memory', 'redis'] as const) {
    const storage = driver === 'redis' ? await createProxyStorage({ driver: 'redis', url: 'redis://127.0.0.1:6379', base }) : undefined
    proxies[driver] = await startTestProxy({
      'remote-management': { 'secret-key': secret },
      'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt', alias: 'm' }] }],
      'model-prices': { m: { input: 10, output: 10 } },
      'client-keys': [
        { key: 'tpm-key', name: 'tpm', tpm: 100_000 },
        { key: 'budget-key', name: 'budget', budget: { usd: 1000, period: 'day' } },
      ],
    }, [], storage)
  }
}, 20_000)
afterAll(async () => {
  for (const proxy of Object.values(proxies)) await proxy.close()
  await upstream?.close()
  await dropRedisKeys(base)
})

const chat = (url: string, key: string, maxTokens: number) => fetch(`${url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', stream: true, max_tokens: maxTokens, messages: [{ role: 'user', content: 'hi' }] }),
}).then(async response => ({ status: response.status, text: await response.text() }))

describe.each(['memory', 'redis'])('on %s', (driver) => {
  it.each(['tpm', 'budget'])('a 1e25-token reservation in flight takes the key\'s %s', async (key) => {
    const url = proxies[driver]!.url
    const first = chat(url, `${key}-key`, 1e25)
    await new Promise(resolve => setTimeout(resolve, 150))
    const view = await fetch(`${url}/v0/management/client-keys/${key}`, { headers: { authorization: `Bearer ${secret}` } }).then(r => r.json() as Promise<any>)
    expect(key === 'tpm' ? view.usage.minute.reserved_tokens : view.usage.reserved_usd).toBeGreaterThan(1e6)
    expect((await chat(url, `${key}-key`, 10)).status).toBe(key === 'tpm' ? 429 : 402)
    expect((await first).status).toBe(200)
    expect((await (await fetch(`${url}/readyz`)).json() as any).status).toBe('ready')
  })
})
