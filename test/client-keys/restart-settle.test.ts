import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dropRedisKeys } from '../helpers/redis-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { scriptedUsage, startUsageUpstream, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'

/**
 * An instance restarted under the same instance id (`PROXY_INSTANCE_ID`, or host and port: stable by
 * design) on a Redis that still holds its previous run's settlement markers: the new run's requests are
 * charged all the same. Its reservations once had the ids of the previous run's (`<instance>:0`, `:1`,
 * ...), so their settlements were taken for replays and dropped for the 15 minutes a marker lives.
 */
const secret = 'restart-settle-admin'
const base = `proxy-restart-settle-${process.pid}-${Date.now()}`
const usage = scriptedUsage.compat
// $10 per million tokens, cache reads at the input price: what one answer of the scripted upstream costs.
const costEach = (usage.input + usage.output) * 10 / 1e6
let upstream: UsageUpstream
let proxy: TestProxy | undefined

const start = async () => {
  process.env.PROXY_INSTANCE_ID = 'restarted-instance'
  try {
    const storage = await createProxyStorage({ driver: 'redis', url: 'redis://127.0.0.1:6379', base })
    return await startTestProxy({
      'remote-management': { 'secret-key': secret },
      'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt', alias: 'm' }] }],
      'model-prices': { m: { input: 10, output: 10 } },
      'client-keys': [{ key: 'spender-key', name: 'spender', budget: { usd: 100, period: 'total' } }],
    }, [], storage)
  } finally {
    delete process.env.PROXY_INSTANCE_ID
  }
}
const chat = (url: string) => fetch(`${url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer spender-key', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
}).then(response => response.status)
const view = (url: string) => fetch(`${url}/v0/management/client-keys/spender`, { headers: { authorization: `Bearer ${secret}` } }).then(r => r.json() as Promise<any>)

beforeAll(async () => { upstream = await startUsageUpstream() })
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
  await dropRedisKeys(base)
})

describe('a restarted instance, same id, same Redis', () => {
  it('charges every request of both runs', async () => {
    proxy = await start()
    expect(await Promise.all([chat(proxy.url), chat(proxy.url)])).toEqual([200, 200])
    await expect.poll(async () => (await view(proxy!.url)).usage.spent_usd.total).toBeCloseTo(2 * costEach, 9)
    await proxy.close()
    proxy = await start()
    expect(await Promise.all([chat(proxy.url), chat(proxy.url), chat(proxy.url)])).toEqual([200, 200, 200])
    await expect.poll(async () => (await view(proxy!.url)).usage.reserved_usd).toBe(0)
    expect((await view(proxy.url)).usage.spent_usd.total).toBeCloseTo(5 * costEach, 9)
  }, 20_000)
})
