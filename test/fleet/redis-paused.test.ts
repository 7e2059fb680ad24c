import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import type { CliProcess } from '../helpers/spawn-cli.ts'
import type { OwnRedis } from '../helpers/redis-server.ts'
import { startRedisProxyProcess, type RedisProxyProcess } from '../helpers/redis-proxy-process.ts'
import { awayFromMinuteEdge } from '../helpers/minute-edge.ts'

/**
 * Redis paused (SIGSTOP) under a real proxy process: its connections stay open and no error arrives,
 * the way a frozen host or a partition that drops packets behaves. The instance must notice on its own
 * (readiness degraded, limits counted locally) instead of making every request wait out the command
 * timeout, and come back by itself when Redis runs again.
 */
const secret = 'paused-admin'
let upstream: MockUpstream
let proxy: RedisProxyProcess
let redis: OwnRedis
let cli: CliProcess
let url: string

beforeAll(async () => {
  upstream = await startMockOpenAI()
  proxy = await startRedisProxyProcess('paused', [
    `remote-management: { secret-key: '${secret}' }`,
    'request-retry: 0',
    'compat-provider:',
    `  - { name: mock, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: up1 }, { api-key: up2 }, { api-key: up3 }], models: [{ name: mock-gpt, alias: m }] }`,
    'model-prices: { m: { input: 1, output: 1 } }',
    'client-keys:',
    '  - { key: team-key, name: team, rpm: 1000 }',
  ])
  ;({ redis, cli, url } = proxy)
}, 30_000)
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const chat = async (session?: string) => {
  const started = performance.now()
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: 'Bearer team-key', 'content-type': 'application/json', ...(session && { 'session-id': session }) },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
  })
  await response.arrayBuffer()
  return { status: response.status, ms: performance.now() - started, account: String(upstream.requests.at(-1)?.headers.authorization) }
}
const minute = async () => (await (await fetch(`${url}/v0/management/client-keys/team`, { headers: { authorization: `Bearer ${secret}` } })).json() as any).usage.minute as { requests: number; reserved_tokens: number }
const readiness = async () => (await (await fetch(`${url}/readyz`)).json()) as { status: string; reason?: string }

describe('Redis paused (SIGSTOP)', () => {
  it('the instance notices within a bound, stops waiting on it, and is ready again when it runs', async () => {
    for (let i = 0; i < 3; i++) expect((await chat()).status).toBe(200)
    redis.pause()
    const pausedAt = performance.now()
    await expect.poll(async () => (await readiness()).status, { timeout: 4000, interval: 50 }).toBe('degraded')
    const noticedMs = performance.now() - pausedAt
    expect((await readiness()).reason).toMatch(/^Redis unreachable \(no reply within \d+ ms\); serving with local state$/)
    // Noticed: requests are answered without waiting on the paused server.
    const during = []
    for (let i = 0; i < 5; i++) during.push(await chat())
    expect(during.map(r => r.status)).toEqual([200, 200, 200, 200, 200])
    expect(Math.max(...during.map(r => r.ms))).toBeLessThan(1000)
    redis.resume()
    const resumedAt = performance.now()
    await expect.poll(async () => (await readiness()).status, { timeout: 4000, interval: 50 }).toBe('ready')
    console.log(`[paused] degraded ${noticedMs.toFixed(0)} ms after SIGSTOP; requests meanwhile ${during.map(r => r.ms.toFixed(0)).join(', ')} ms; ready ${(performance.now() - resumedAt).toFixed(0)} ms after SIGCONT`)
    await expect.poll(() => cli.output(), { timeout: 3000 }).toContain('client-key limits: the shared store is back')
  }, 30_000)

  it('reservations sent just as Redis paused run there when it resumes: each request is counted once, no reservation is left behind', async () => {
    await awayFromMinuteEdge(20_000)
    await expect.poll(async () => (await readiness()).status, { timeout: 4000 }).toBe('ready')
    const before = (await minute()).requests
    redis.pause()
    // Sent before the instance can notice: their scripts wait in the paused server's socket, time out
    // here (the requests are served on local counters), and run when Redis resumes.
    const first = await Promise.all(Array.from({ length: 4 }, () => chat()))
    await expect.poll(async () => (await readiness()).status, { timeout: 4000, interval: 50 }).toBe('degraded')
    const second = [await chat(), await chat()]
    expect([...first, ...second].map(r => r.status)).toEqual([200, 200, 200, 200, 200, 200])
    redis.resume()
    await expect.poll(async () => (await readiness()).status, { timeout: 4000, interval: 50 }).toBe('ready')
    await expect.poll(minute, { timeout: 5000 }).toMatchObject({ requests: before + 6, reserved_tokens: 0 })
    // Settled for good: a later write-back does not count them again.
    await new Promise(resolve => setTimeout(resolve, 1500))
    expect(await minute()).toMatchObject({ requests: before + 6, reserved_tokens: 0 })
  }, 40_000)

  it('paused at start: the instance starts and serves (degraded, the reason in words), and is ready once Redis runs', async () => {
    redis.pause()
    const second = proxy.spawn()
    try {
      const secondUrl = await second.url
      const secondReadiness = async () => (await (await fetch(`${secondUrl}/readyz`)).json()) as { status: string; reason?: string }
      expect((await secondReadiness()).status).toBe('degraded')
      // Connecting, until the first try (its client's handshake, then its ready check) runs out of time.
      await expect.poll(async () => (await secondReadiness()).reason, { timeout: 8000 }).toBe('Redis unreachable (no reply within 2000 ms); serving with local state')
      const answer = await fetch(`${secondUrl}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: 'Bearer team-key', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(answer.status).toBe(200)
      redis.resume()
      await expect.poll(async () => (await secondReadiness()).status, { timeout: 5000, interval: 50 }).toBe('ready')
    } finally {
      redis.resume()
      await second.kill('SIGKILL')
    }
  }, 40_000)

  it('conversations stay on their accounts, without waiting on Redis for their bindings', async () => {
    await expect.poll(async () => (await readiness()).status, { timeout: 4000 }).toBe('ready')
    const sessions = ['s1', 's2', 's3']
    const bound = new Map<string, string>()
    for (const session of sessions) bound.set(session, (await chat(session)).account)
    // One request without a session moves the round-robin on: a conversation that lost its binding would move too.
    await chat()
    redis.pause()
    try {
      await expect.poll(async () => (await readiness()).status, { timeout: 4000, interval: 50 }).toBe('degraded')
      for (const session of sessions) {
        const answer = await chat(session)
        expect(answer).toMatchObject({ status: 200, account: bound.get(session) })
        expect(answer.ms).toBeLessThan(1000)
      }
    } finally {
      redis.resume()
    }
  }, 30_000)
})

