import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { startOwnRedis, type OwnRedis } from '../helpers/redis-server.ts'
import { scriptedUsage, startUsageUpstream, type UsageUpstream } from '../helpers/usage-upstream.ts'

/**
 * Two proxy processes on one Redis, and Redis restarted while streams are in flight: every request is
 * settled exactly once, with the usage its upstream reported. Streams reserved in Redis and settled
 * while it was away, and requests admitted and settled on local counters, are written back when it
 * returns (by the "up" event or the retry timer, whichever comes first), each once; no reservation is
 * left held.
 */
const secret = 'settle-once-admin'
const price = { input: 3, output: 15, 'cache-read': 0.3, 'cache-write': 3.75 }
const usage = scriptedUsage.beta
const costEach = ((usage.input - usage.cacheRead - usage.cacheWrite) * price.input + usage.cacheRead * price['cache-read'] + usage.cacheWrite * price['cache-write'] + usage.output * price.output) / 1e6
let redis: OwnRedis
let upstream: UsageUpstream
let root: string
const instances: Array<{ cli: CliProcess; url: string }> = []

beforeAll(async () => {
  redis = await startOwnRedis()
  // Each stream takes ~0.5 s: a burst is in flight when Redis goes.
  upstream = await startUsageUpstream({ frameDelayMs: 50 })
  root = mkdtempSync(join(tmpdir(), 'proxy-settle-once-'))
  for (const name of ['a', 'b']) {
    const dir = join(root, name)
    mkdirSync(dir)
    writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', storage: { driver: 'redis', url: '${redis.url}', base: 'settle-once' } }\n`)
    writeFileSync(join(dir, 'config.yaml'), [
      'host: 127.0.0.1',
      `remote-management: { secret-key: '${secret}' }`,
      'usage-statistics-enabled: true',
      'request-retry: 0',
      `beta-api-key: [{ api-key: up, base-url: '${upstream.url}', models: [{ name: up-beta, alias: m }] }]`,
      `model-prices: { m: ${JSON.stringify(price)} }`,
      'client-keys:',
      '  - { key: team-key, name: team, tpm: 100000000, budget: { usd: 1000, period: day } }',
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

/** A same-format messages stream (Claude Code's kind of request), read to its end. */
const stream = (i: number) => fetch(`${instances[i % 2]!.url}/v1/messages`, {
  method: 'POST',
  headers: { 'x-api-key': 'team-key', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
  body: JSON.stringify({ model: 'm', max_tokens: 32_000, stream: true, messages: [{ role: 'user', content: `turn ${i}` }] }),
}).then(async response => ({ status: response.status, text: await response.text() }))
const burst = (from: number, count: number) => Array.from({ length: count }, (_, i) => stream(from + i))
const admin = (i: number, path: string) => fetch(`${instances[i]!.url}/v0/management${path}`, { headers: { authorization: `Bearer ${secret}` } }).then(r => r.json() as Promise<any>)
const ready = async (i: number) => (await (await fetch(`${instances[i]!.url}/readyz`)).json() as any).status

describe('two instances, one Redis, restarted mid-stream', () => {
  it('every request is settled exactly once, with the reported usage', async () => {
    const answers = await Promise.all(burst(0, 6))
    // In flight when Redis stops: reserved in Redis, settled while it is away.
    const inFlight = burst(6, 8)
    await new Promise(resolve => setTimeout(resolve, 150))
    await redis.stop({ save: true })
    await expect.poll(() => ready(0), { timeout: 10_000 }).toBe('degraded')
    // Admitted and settled on local counters.
    const whileDown = await Promise.all(burst(14, 6))
    answers.push(...await Promise.all(inFlight), ...whileDown)
    await redis.start()
    // Ready: connected, and what it counted on its own written back (degraded, with details, until then).
    // Polled tightly: the spend is read at once after, with no slack for a write-back still under way.
    for (const i of [0, 1]) await expect.poll(() => ready(i), { timeout: 20_000, interval: 5 }).toBe('ready')

    const total = answers.length
    expect(answers.map(a => a.status)).toEqual(Array.from({ length: total }, () => 200))
    for (const answer of answers) expect(answer.text).toContain('event: message_stop')
    for (const i of [0, 1]) {
      const view = await admin(i, '/client-keys/team')
      expect(view.usage.spent_usd.total, `instance ${i}: spend`).toBeCloseTo(total * costEach, 9)
      expect(view.usage.reserved_usd).toBe(0)
      expect(view.usage.minute.reserved_tokens).toBe(0)
    }
    await expect.poll(async () => (await admin(0, '/usage')).usage.by_client_key.team?.requests, { timeout: 10_000 }).toBe(total)
    const { usage: summary } = await admin(1, '/usage')
    expect(summary.by_client_key.team).toMatchObject({ requests: total, input_tokens: total * usage.input, output_tokens: total * usage.output, cached_tokens: total * usage.cacheRead, cache_write_tokens: total * usage.cacheWrite, estimated_requests: 0 })
    expect(summary.by_client_key.team.cost_usd).toBeCloseTo(total * costEach, 6)
  }, 120_000)
})
