import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startQuotaLimitedUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { startOwnRedis, type OwnRedis } from '../helpers/redis-server.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'
import { sharedPart } from '../../core/config/local-keys.ts'

/**
 * Issue 19.3: Redis down at start, and lost while serving under load (a redis-server of the test's own,
 * stopped and started again): the proxy keeps serving on local state, /readyz says degraded with the
 * reason, a metric counts it, and when Redis is back what happened meanwhile is written there (usage
 * records, credential states, config changes): nothing lost, nothing counted twice.
 */
const base = 'proxy-outage'
const secret = 'outage-admin'
let redis: OwnRedis
let upstream: MockUpstream
let dir: string
let cli: CliProcess | undefined
let url: string

beforeAll(async () => {
  redis = await startOwnRedis()
  // `limited` always answers 429: a cooldown set while Redis is away must reach Redis later.
  upstream = await startQuotaLimitedUpstream('limited')
  dir = mkdtempSync(join(tmpdir(), 'proxy-outage-'))
  writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', storage: { driver: 'redis', url: '${redis.url}', base: '${base}' } }\n`)
  writeFileSync(join(dir, 'config.yaml'), [
    'host: 127.0.0.1',
    'api-keys: [client]',
    'usage-statistics-enabled: true',
    'max-retry-interval: 0',
    'request-retry: 0',
    'compat-provider:',
    `  - { name: ok, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: fine }], models: [{ name: mock-gpt, alias: m }] }`,
    `  - { name: quota, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: limited }], models: [{ name: mock-gpt, alias: q }] }`,
    '',
  ].join('\n'))
}, 20_000)
afterAll(async () => {
  await cli?.kill('SIGKILL')
  await upstream.close()
  await redis.close()
  rmSync(dir, { recursive: true, force: true })
})

const chat = (model = 'm') => fetch(`${url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client', 'content-type': 'application/json' },
  body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
})
const ready = async () => await (await fetch(`${url}/readyz`)).json() as { status: string; reason?: string }
const metric = async (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await (await fetch(`${url}/metrics`)).text())?.[1])
const admin = (method: string, path: string, body?: unknown) => fetch(`${url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
})

/** What Redis holds, read by a client of the test's own. */
async function inRedis<T>(read: (storage: Awaited<ReturnType<typeof createProxyStorage>>) => Promise<T>): Promise<T> {
  const storage = await createProxyStorage({ driver: 'redis', url: redis.url, base })
  try { return await read(storage) } finally { await storage.dispose() }
}
const storedUsageIds = () => inRedis(async (storage) => {
  const keys = await storage.getKeys('usage:chunk')
  const chunks = await storage.getItems(keys)
  return chunks.flatMap(({ value }) => (value as Array<{ id: string }>).map(record => record.id))
})

/** Requests from `workers` clients in a loop until stopped; every answer's status is kept. */
function load(workers: number) {
  const statuses: number[] = []
  let running = true
  const done = Promise.all(Array.from({ length: workers }, async () => {
    while (running) statuses.push(await chat().then(r => r.status, () => 0))
  }))
  return { statuses, stop: async () => { running = false; await done } }
}

describe('Redis outages', () => {
  it('down at start: serves on local state, degraded with the reason; reconciled when Redis comes', async () => {
    await redis.stop()
    const started = performance.now()
    cli = runCli(['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], dir, { MANAGEMENT_PASSWORD: secret })
    url = await cli.url
    expect(performance.now() - started).toBeLessThan(10_000)
    const statuses = await Promise.all(Array.from({ length: 5 }, () => chat().then(r => r.status)))
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    const readiness = await fetch(`${url}/readyz`)
    expect(readiness.status).toBe(200)
    expect(await readiness.json()).toMatchObject({ status: 'degraded', reason: expect.stringMatching(/^Redis unreachable \(ECONNREFUSED\); serving with local state$/) })
    expect(await metric('proxy_shared_store_up')).toBe(0)
    expect(await metric('proxy_shared_store_outages_total')).toBe(1)
    // A management change while Redis is away is written to the file now and shared later.
    expect((await admin('PUT', '/request-retry', { value: 2 })).status).toBe(200)

    await redis.start()
    await expect.poll(async () => (await ready()).status, { timeout: 5000 }).toBe('ready')
    expect(await metric('proxy_shared_store_up')).toBe(1)
    await expect.poll(async () => (await storedUsageIds()).length, { timeout: 5000 }).toBe(5)
    // The config is shared by its own reconcile, which may land after the usage's.
    await expect.poll(async () => (await inRedis(storage => storage.getItem<{ text: string }>('{fleet:config}:doc:config')))?.text ?? '', { timeout: 5000 }).toContain('request-retry: 2')
  }, 30_000)

  it('lost while serving under load: no request fails, no usage record lost or counted twice, state written back', async () => {
    const traffic = load(4)
    await new Promise(resolve => setTimeout(resolve, 800))
    // A clean stop (data saved), as a Redis restart for maintenance does.
    await redis.stop({ save: true })
    const stoppedAt = performance.now()
    await expect.poll(async () => (await ready()).status, { timeout: 5000, interval: 20 }).toBe('degraded')
    const noticedMs = performance.now() - stoppedAt
    const outageStatuses = traffic.statuses.length
    // While away: a cooldown is set, the config is changed.
    expect((await chat('q')).status).toBe(429)
    expect((await admin('PUT', '/max-retry-interval', { value: 3 })).status).toBe(200)
    await new Promise(resolve => setTimeout(resolve, 1500))
    expect(traffic.statuses.length).toBeGreaterThan(outageStatuses)
    expect(await metric('proxy_shared_store_outages_total')).toBe(2)
    await redis.start()
    const startedAt = performance.now()
    await expect.poll(async () => (await ready()).status, { timeout: 5000, interval: 20 }).toBe('ready')
    const backMs = performance.now() - startedAt
    await new Promise(resolve => setTimeout(resolve, 500))
    await traffic.stop()

    expect(traffic.statuses.filter(status => status !== 200)).toEqual([])
    const served = traffic.statuses.length + 5 + 1
    await expect.poll(async () => (await storedUsageIds()).length, { timeout: 5000 }).toBe(served)
    const ids = await storedUsageIds()
    expect(new Set(ids).size).toBe(ids.length)
    const states = await inRedis(async storage => storage.getItem<{ cooldowns: Record<string, unknown> }>('routing:cred:compat:quota:1.0'))
    expect(Object.keys(states?.cooldowns ?? {})).toContain('mock-gpt')
    const shared = await inRedis(storage => storage.getItem<{ text: string }>('{fleet:config}:doc:config'))
    expect(shared?.text).toContain('max-retry-interval: 3')
    console.log(`outage under load: ${traffic.statuses.length} requests, all 200; ${ids.length} usage records in Redis after it came back; degraded ${noticedMs.toFixed(0)} ms after the stop, ready ${backMs.toFixed(0)} ms after the start`)
  }, 30_000)

  it('Redis back from an old snapshot (killed after an earlier save): the instance\'s newer config and states win', async () => {
    // The save of the previous test is on disk: this start loads it, older than what the instance has.
    await redis.stop()
    await expect.poll(async () => (await ready()).status, { timeout: 5000 }).toBe('degraded')
    await redis.start()
    await expect.poll(async () => (await ready()).status, { timeout: 5000 }).toBe('ready')
    await expect.poll(() => inRedis(storage => storage.getItem<{ text: string }>('{fleet:config}:doc:config')), { timeout: 5000 }).toMatchObject({ text: sharedPart(readFileSync(join(dir, 'config.yaml'), 'utf8')) })
    await expect.poll(() => inRedis(storage => storage.hasItem('routing:cred:compat:quota:1.0')), { timeout: 5000 }).toBe(true)
  }, 30_000)

  it('Redis back empty: the config and credential states are seeded again from the instance', async () => {
    await redis.stop()
    redis.forget()
    await expect.poll(async () => (await ready()).status, { timeout: 5000 }).toBe('degraded')
    await redis.start()
    await expect.poll(async () => (await ready()).status, { timeout: 5000 }).toBe('ready')
    await expect.poll(() => inRedis(storage => storage.getItem<{ text: string }>('{fleet:config}:doc:config')), { timeout: 5000 }).toMatchObject({ text: sharedPart(readFileSync(join(dir, 'config.yaml'), 'utf8')) })
    await expect.poll(() => inRedis(storage => storage.hasItem('routing:cred:compat:quota:1.0')), { timeout: 5000 }).toBe(true)
    expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).toContain('max-retry-interval: 3')
  }, 30_000)
})
