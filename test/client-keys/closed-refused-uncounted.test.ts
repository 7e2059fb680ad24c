import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startRedisProxyProcess, type RedisProxyProcess } from '../helpers/redis-proxy-process.ts'
import { awayFromMinuteEdge } from '../helpers/minute-edge.ts'

/**
 * `client-key-policy.on-error: closed`: a request whose reservation was sent as Redis stopped answering
 * is refused (503 limits_unavailable) once the command times out. It was never served, so it must not
 * count against the key's rpm when this instance writes back what it counted meanwhile: it did (one
 * request each), and a key with a small rpm was then refused for the rest of the minute for requests
 * it never got.
 */
const secret = 'closed-admin'
let upstream: MockUpstream
let proxy: RedisProxyProcess

beforeAll(async () => {
  upstream = await startMockOpenAI()
  proxy = await startRedisProxyProcess('closed-uncounted', [
    `remote-management: { secret-key: '${secret}' }`,
    'request-retry: 0',
    'client-key-policy: { on-error: closed }',
    'compat-provider:',
    `  - { name: mock, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: up1 }], models: [{ name: mock-gpt, alias: m }] }`,
    'client-keys:',
    '  - { key: team-key, name: team, rpm: 1000 }',
  ])
}, 30_000)
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const chat = async () => {
  const response = await fetch(`${proxy.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: 'Bearer team-key', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
  })
  return { status: response.status, body: await response.json() as any }
}
const minute = async () => (await (await fetch(`${proxy.url}/v0/management/client-keys/team`, { headers: { authorization: `Bearer ${secret}` } })).json() as any).usage.minute as { requests: number; reserved_tokens: number }
const readiness = async () => ((await (await fetch(`${proxy.url}/readyz`)).json()) as { status: string }).status

describe('on-error: closed, Redis paused under requests', () => {
  it('the requests refused 503 count nowhere once Redis is back; the served ones count once', async () => {
    await awayFromMinuteEdge(20_000)
    expect((await chat()).status).toBe(200)
    const before = (await minute()).requests
    const sent = upstream.requests.length
    proxy.redis.pause()
    // Sent before the instance can notice: their reservations wait in the paused server's socket until
    // the command times out; then they are refused, not served on local counters.
    const refused = await Promise.all(Array.from({ length: 4 }, () => chat()))
    expect(refused.map(r => r.status)).toEqual([503, 503, 503, 503])
    expect(refused[0]!.body.error.code).toBe('limits_unavailable')
    expect(upstream.requests.length).toBe(sent)
    await expect.poll(readiness, { timeout: 4000, interval: 50 }).toBe('degraded')
    proxy.redis.resume()
    await expect.poll(readiness, { timeout: 8000, interval: 50 }).toBe('ready')
    // The paused scripts ran on resume, and the write-back came: neither counts a refused request.
    await new Promise(resolve => setTimeout(resolve, 1500))
    expect(await minute()).toMatchObject({ requests: before, reserved_tokens: 0 })
    expect((await chat()).status).toBe(200)
    expect(await minute()).toMatchObject({ requests: before + 1 })
  }, 40_000)
})
