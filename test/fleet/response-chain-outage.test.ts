import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startOwnRedis, type OwnRedis } from '../helpers/redis-server.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'

/**
 * `previous_response_id` toward a messages upstream while the shared store that keeps the proxy's
 * responses (a Redis of the test's own) is down: the response exists, it just cannot be read now. The
 * client must hear that (503, which SDKs retry), at once, not a permanent 404 after a wait.
 */
let redis: OwnRedis
let upstream: MockUpstream
let proxy: TestProxy

beforeAll(async () => {
  redis = await startOwnRedis()
  upstream = await startMockUpstream(messagesMock)
  const storage = await createProxyStorage({ driver: 'redis', url: redis.url, base: 'chain-outage' })
  proxy = await startTestProxy({ 'api-keys': ['client'], 'beta-api-key': [{ 'api-key': 'up', 'base-url': upstream.url, models: [{ name: 'mock-claude', alias: 'via-beta' }] }] }, [], storage)
}, 30_000)
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
  await redis?.close()
})

const next = (previous: string) => fetch(`${proxy.url}/v1/responses`, {
  method: 'POST', headers: { authorization: 'Bearer client', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'via-beta', input: 'next', previous_response_id: previous }),
})
const readiness = async () => ((await (await fetch(`${proxy.url}/readyz`)).json()) as { status: string }).status

describe('previous_response_id while Redis is down', () => {
  it('503 at once, nothing sent upstream; chained again once Redis is back', async () => {
    const first = await new OpenAI({ apiKey: 'client', baseURL: `${proxy.url}/v1`, maxRetries: 0 }).responses.create({ model: 'via-beta', input: 'first question' })
    await redis.stop({ save: true })
    await expect.poll(readiness, { timeout: 5000 }).toBe('degraded')
    const sent = upstream.requests.length
    const started = performance.now()
    const answer = await next(first.id)
    expect(performance.now() - started).toBeLessThan(500)
    expect(answer.status).toBe(503)
    expect(await answer.json()).toMatchObject({ error: { type: 'server_error', code: 'previous_response_unavailable' } })
    expect(upstream.requests.length).toBe(sent)

    await redis.start()
    await expect.poll(readiness, { timeout: 5000 }).toBe('ready')
    expect((await next(first.id)).status).toBe(200)
  }, 30_000)
})
