import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dropRedisKeys } from '../helpers/redis-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { scriptedUsage, startUsageUpstream, type UsageUpstream } from '../helpers/usage-upstream.ts'
import { clientCall, clientHeaders, type ClientFormat } from '../helpers/client-formats.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'
import { awayFromMinuteEdge } from '../helpers/minute-edge.ts'

/**
 * 50 requests at once, in four client formats (chat same-format with the compat upstream, the others
 * translated), streamed and not, on one instance (memory) and on two in-process instances sharing Redis:
 * an rpm of 10 lets exactly 10 through, and a key's spend is exactly what the served requests' upstream
 * usage costs, with nothing left reserved and nothing charged for the refused ones.
 */
const secret = 'burst-admin'
const base = `proxy-burst-${process.pid}-${Date.now()}`
const usage = scriptedUsage.compat
// $10 per million tokens of every kind (cache reads at the input price): one served request's cost.
const costEach = (usage.input + usage.output) * 10 / 1e6
const formats: ClientFormat[] = ['chat', 'messages', 'responses', 'generate-sse']
let upstream: UsageUpstream

const config = (url: string) => ({
  'remote-management': { 'secret-key': secret },
  'compat-provider': [{ name: 'mock', 'base-url': `${url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt', alias: 'm' }] }],
  'model-prices': { m: { input: 10, output: 10 } },
  'client-keys': [
    { key: 'rpm-key', name: 'rpm', rpm: 10 },
    { key: 'budget-key', name: 'budget', budget: { usd: 0.05, period: 'day' } },
  ],
})

beforeAll(async () => { upstream = await startUsageUpstream({ frameDelayMs: 20 }) })
afterAll(async () => {
  await upstream?.close()
  await dropRedisKeys(base)
})

describe.each(['memory', 'redis'] as const)('a burst of 50 on %s', (driver) => {
  const proxies: TestProxy[] = []
  beforeAll(async () => {
    for (let i = 0; i < (driver === 'redis' ? 2 : 1); i++) {
      // Two instances of one process: their own ids, as two hosts would have.
      process.env.PROXY_INSTANCE_ID = `burst-${driver}-${i}`
      try {
        const storage = driver === 'redis' ? await createProxyStorage({ driver: 'redis', url: 'redis://127.0.0.1:6379', base }) : undefined
        proxies.push(await startTestProxy(config(upstream.url), [], storage))
      } finally {
        delete process.env.PROXY_INSTANCE_ID
      }
    }
  })
  afterAll(async () => { for (const proxy of proxies) await proxy.close() })

  const send = async (i: number, key: string) => {
    const { path, body } = clientCall(formats[i % formats.length]!, 'm', Math.floor(i / formats.length) % 2 === 0)
    const response = await fetch(`${proxies[i % proxies.length]!.url}${path}`, { method: 'POST', headers: clientHeaders(key), body: JSON.stringify(body) })
    await response.text()
    return response.status
  }
  const burst = (key: string) => Promise.all(Array.from({ length: 50 }, (_, i) => send(i, key)))
  const view = (name: string) => fetch(`${proxies[0]!.url}/v0/management/client-keys/${name}`, { headers: { authorization: `Bearer ${secret}` } }).then(r => r.json() as Promise<any>)

  it('rpm 10: exactly 10 through, the rest 429', async () => {
    await awayFromMinuteEdge(10_000)
    const statuses = await burst('rpm-key')
    expect(statuses.filter(status => status === 200)).toHaveLength(10)
    expect(statuses.filter(status => status === 429)).toHaveLength(40)
  }, 20_000)

  it('spend is the served requests\' upstream usage, nothing left reserved', async () => {
    const statuses = await burst('budget-key')
    const served = statuses.filter(status => status === 200).length
    expect(statuses.filter(status => status !== 200).every(status => status === 402)).toBe(true)
    await expect.poll(async () => (await view('budget')).usage.reserved_usd, { timeout: 5000 }).toBe(0)
    expect((await view('budget')).budget.spent_usd).toBeCloseTo(served * costEach, 9)
    expect(await send(1, 'budget-key')).toBe(402)
    expect((await view('budget')).budget.spent_usd).toBeCloseTo(served * costEach, 9)
  })
})
