import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import type { OwnRedis } from '../helpers/redis-server.ts'
import { startRedisProxyProcess, type RedisProxyProcess } from '../helpers/redis-proxy-process.ts'
import { awayFromMinuteEdge } from '../helpers/minute-edge.ts'

/**
 * Redis restarted without its data (no persistence, a failover to an empty replica) under a real proxy
 * process: a key's spent budget and its minute's requests must not start over, or the key gets its
 * budget a second time. The instance knows the counters as it last saw them and raises Redis's to them.
 */
const secret = 'emptied-admin'
let upstream: MockUpstream
let proxy: RedisProxyProcess
let redis: OwnRedis
let url: string

beforeAll(async () => {
  upstream = await startMockOpenAI()
  proxy = await startRedisProxyProcess('emptied', [
    `remote-management: { secret-key: '${secret}' }`,
    'request-retry: 0',
    'compat-provider:',
    `  - { name: mock, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: up }], models: [{ name: mock-gpt, alias: m }] }`,
    // Each answer costs a few cents: three spend the budget.
    'model-prices: { m: { input: 1000, output: 1000 } }',
    'client-keys:',
    '  - { key: budget-key, name: budget, budget: { usd: 0.05, period: total } }',
    '  - { key: rpm-key, name: rpm, rpm: 3 }',
  ])
  ;({ redis, url } = proxy)
}, 30_000)
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const chat = async (key: string) => (await fetch(`${url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
})).status
const view = async (name: string) => (await (await fetch(`${url}/v0/management/client-keys/${name}`, { headers: { authorization: `Bearer ${secret}` } })).json()) as any
const readiness = async () => ((await (await fetch(`${url}/readyz`)).json()) as { status: string }).status

describe('Redis back empty', () => {
  it('a spent budget stays spent and a used minute stays used', async () => {
    await awayFromMinuteEdge(20_000)
    const statuses: number[] = []
    while (!statuses.includes(402) && statuses.length < 6) statuses.push(await chat('budget-key'))
    expect(statuses.at(-1)).toBe(402)
    const spent = (await view('budget')).budget.spent_usd
    expect(spent).toBeGreaterThanOrEqual(0.05)
    expect([await chat('rpm-key'), await chat('rpm-key'), await chat('rpm-key'), await chat('rpm-key')]).toEqual([200, 200, 200, 429])

    // Killed (no save) and started again: every key in Redis is gone.
    await redis.stop()
    await expect.poll(readiness, { timeout: 5000 }).toBe('degraded')
    await redis.start()
    await expect.poll(readiness, { timeout: 5000 }).toBe('ready')
    await expect.poll(async () => (await view('budget')).budget.spent_usd, { timeout: 5000 }).toBe(spent)
    expect((await view('rpm')).usage.minute.requests).toBe(3)
    expect(await chat('budget-key')).toBe(402)
    expect(await chat('rpm-key')).toBe(429)
  }, 40_000)
})
