import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { startOwnRedis, type OwnRedis } from '../helpers/redis-server.ts'
import { awayFromMinuteEdge } from '../helpers/minute-edge.ts'

/**
 * Issue 23: two real proxy processes on one Redis enforce a key's rpm, tpm and budget for the fleet.
 * A burst of concurrent requests, split over both, may overshoot a limit only by what requests already
 * in flight used beyond their reservation; a per-instance counter would let each instance take the
 * whole limit. Then Redis goes away: both serve on local counters and say so, and what they counted
 * meanwhile reaches Redis when it returns.
 */
const secret = 'fleet-keys-admin'
const perRequest = { prompt: 40, completion: 60 }
const maxTokens = 60
let redis: OwnRedis
let upstream: MockUpstream
let root: string
const instances: Array<{ cli: CliProcess; url: string }> = []

beforeAll(async () => {
  redis = await startOwnRedis()
  // Every answer takes 400 ms and reports 100 tokens: the whole burst is in flight together.
  upstream = await startMockUpstream(async () => {
    await new Promise(resolve => setTimeout(resolve, 400))
    return Response.json({
      id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'mock-gpt',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: perRequest.prompt, completion_tokens: perRequest.completion, total_tokens: perRequest.prompt + perRequest.completion },
    })
  })
  root = mkdtempSync(join(tmpdir(), 'proxy-fleet-keys-'))
  for (const name of ['a', 'b']) {
    const dir = join(root, name)
    mkdirSync(dir)
    writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', storage: { driver: 'redis', url: '${redis.url}', base: 'fleet-keys' } }\n`)
    writeFileSync(join(dir, 'config.yaml'), [
      'host: 127.0.0.1',
      `remote-management: { secret-key: '${secret}' }`,
      'request-retry: 0',
      'compat-provider:',
      `  - { name: mock, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: up }], models: [{ name: mock-gpt, alias: m }] }`,
      // $100 per million tokens: each answer (100 tokens) costs $0.01.
      'model-prices: { m: { input: 100, output: 100 } }',
      'client-keys:',
      '  - { key: rpm-key, name: rpm, rpm: 10 }',
      '  - { key: tpm-key, name: tpm, tpm: 1000 }',
      '  - { key: budget-key, name: budget, budget: { usd: 0.1, period: day } }',
      '  - { key: all-key, name: all, rpm: 12, tpm: 1000, budget: { usd: 0.08, period: total } }',
      '  - { key: outage-key, name: outage }',
      '',
    ].join('\n'))
  }
  for (const name of ['a', 'b']) instances.push({ cli: runCli(['start', '--project', join(root, name, 'proxy.config.mjs'), '--port', '0'], join(root, name)), url: '' })
  for (const instance of instances) instance.url = await instance.cli.url
}, 90_000)
afterAll(async () => {
  await Promise.all(instances.map(instance => instance.cli.kill('SIGKILL')))
  await upstream?.close()
  await redis?.close()
  rmSync(root, { recursive: true, force: true })
})

const body = JSON.stringify({ model: 'm', max_tokens: maxTokens, messages: [{ role: 'user', content: 'hi' }] })
/** What the proxy reserves per request before sending it: prompt size / 4 plus max_tokens. */
const reservedTokens = Math.ceil(body.length / 4) + maxTokens
const actualTokens = perRequest.prompt + perRequest.completion
const chat = (i: number, key: string) => fetch(`${instances[i % 2]!.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body,
}).then(async response => ({ status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() }))
const burst = (key: string, count: number) => Promise.all(Array.from({ length: count }, (_, i) => chat(i, key)))
const admin = (i: number, path: string) => fetch(`${instances[i]!.url}/v0/management${path}`, { headers: { authorization: `Bearer ${secret}` } }).then(r => r.json() as Promise<any>)
const metric = async (i: number, pattern: RegExp) => Number(pattern.exec(await (await fetch(`${instances[i]!.url}/metrics`)).text())?.[1])

describe('two instances, one Redis', () => {
  it('rpm: exactly the limit across both instances, whatever the concurrency', async () => {
    // The burst and the reads after it in one clock minute (the window).
    await awayFromMinuteEdge(15_000)
    const answers = await burst('rpm-key', 30)
    const admitted = answers.filter(a => a.status === 200).length
    console.log(`[fleet] rpm 10, burst 30 over 2 instances: admitted ${admitted}, overshoot ${admitted - 10}`)
    expect(admitted).toBe(10)
    expect(answers.filter(a => a.status === 429).every(a => Number(a.retryAfter) >= 1)).toBe(true)
  }, 60_000)

  it('tpm: overshoot at most what the in-flight requests used beyond their reservation', async () => {
    await awayFromMinuteEdge(15_000)
    const answers = await burst('tpm-key', 40)
    const admitted = answers.filter(a => a.status === 200).length
    const used = admitted * actualTokens
    const overshoot = Math.max(0, used - 1000)
    // Admission stops once committed + reserved tokens reach the limit: at most ceil(limit / reservation) requests.
    const bound = Math.ceil(1000 / reservedTokens)
    console.log(`[fleet] tpm 1000, burst 40: admitted ${admitted} (reservation ${reservedTokens}, actual ${actualTokens} tokens each), used ${used}, overshoot ${overshoot} tokens = ${overshoot / actualTokens} requests, all of them in flight; a per-instance limit would admit ${2 * Math.ceil(1000 / reservedTokens)}`)
    expect(admitted).toBeGreaterThanOrEqual(Math.floor(1000 / actualTokens))
    expect(admitted).toBeLessThanOrEqual(bound)
    expect(overshoot).toBeLessThanOrEqual(bound * (actualTokens - reservedTokens) + actualTokens)
    // The window is spent for the fleet: both instances refuse now.
    expect((await chat(0, 'tpm-key')).status).toBe(429)
    expect((await chat(1, 'tpm-key')).status).toBe(429)
    const view = await admin(1, '/client-keys/tpm')
    expect(view.usage.minute.tokens).toBe(used)
  }, 60_000)

  it('budget: spend across both instances, refused on both once spent', async () => {
    const answers = await burst('budget-key', 40)
    const admitted = answers.filter(a => a.status === 200).length
    const spent = admitted * 0.01
    console.log(`[fleet] budget $0.10/day, burst 40: admitted ${admitted}, spent $${spent.toFixed(2)}, overshoot $${Math.max(0, spent - 0.1).toFixed(2)}`)
    expect(admitted).toBeGreaterThanOrEqual(10)
    expect(admitted).toBeLessThanOrEqual(Math.ceil(0.1 / (reservedTokens * 100 / 1e6)))
    for (const i of [0, 1]) {
      const refused = await chat(i, 'budget-key')
      expect(refused.status).toBe(402)
      expect(JSON.parse(refused.text).error.code).toBe('budget_exceeded')
    }
    const view = await admin(0, '/client-keys/budget')
    expect(view.budget.spent_usd).toBeCloseTo(spent, 6)
    expect(view.budget.remaining_usd).toBe(Math.max(0, 0.1 - spent))
  }, 60_000)

  it('rpm, tpm and budget together: the first reached holds for the fleet', async () => {
    const answers = await burst('all-key', 40)
    const admitted = answers.filter(a => a.status === 200).length
    console.log(`[fleet] rpm 12 + tpm 1000 + budget $0.08 total, burst 40: admitted ${admitted}; refused ${answers.filter(a => a.status === 429).length} x 429, ${answers.filter(a => a.status === 402).length} x 402`)
    expect(admitted).toBeGreaterThanOrEqual(8)
    expect(admitted).toBeLessThanOrEqual(Math.ceil(0.08 / (reservedTokens * 100 / 1e6)))
    for (const i of [0, 1]) expect([402, 429]).toContain((await chat(i, 'all-key')).status)
    expect(await metric(0, /proxy_client_key_rejections_total\{key="all",reason="\w+"\} (\d+)/) + await metric(1, /proxy_client_key_rejections_total\{key="all",reason="\w+"\} (\d+)/)).toBeGreaterThan(0)
  }, 60_000)

  it('Redis away: both serve on local counters and say so; what they counted reaches Redis when it returns', async () => {
    expect((await burst('outage-key', 2)).map(a => a.status)).toEqual([200, 200])
    await expect.poll(async () => (await admin(0, '/client-keys/outage')).usage.spent_usd.total, { timeout: 5000 }).toBeCloseTo(0.02, 6)
    await redis.stop({ save: true })
    await expect.poll(async () => (await (await fetch(`${instances[0]!.url}/readyz`)).json() as any).status, { timeout: 10_000 }).toBe('degraded')
    expect((await burst('outage-key', 6)).map(a => a.status)).toEqual([200, 200, 200, 200, 200, 200])
    const ready = await (await fetch(`${instances[1]!.url}/readyz`)).json() as any
    expect(ready.details['client-keys']).toMatch(/counted per instance/)
    expect(await metric(0, /^proxy_client_key_limits_local (\d+)$/m)).toBe(1)
    await redis.start()
    await expect.poll(async () => (await (await fetch(`${instances[0]!.url}/readyz`)).json() as any).status, { timeout: 15_000 }).toBe('ready')
    await expect.poll(async () => (await admin(1, '/client-keys/outage')).usage.spent_usd.total, { timeout: 15_000 }).toBeCloseTo(0.08, 6)
    await expect.poll(() => metric(1, /^proxy_client_key_limits_local (\d+)$/m), { timeout: 10_000 }).toBe(0)
  }, 90_000)
})
