import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'

/** Share of its token window each upstream key has left, as its rate-limit headers report it. */
let remaining: Record<string, number> = {}
let upstream: MockUpstream
const proxies: TestProxy[] = []
const secret = 'mgmt-secret'
const base = `proxy-test-quota-aware-${process.pid}-${Date.now()}`

beforeAll(async () => {
  upstream = await startMockUpstream(async (request) => {
    const key = (request.headers.get('authorization') ?? '').replace('Bearer ', '')
    const answer = await openaiMock(request)
    const headers = new Headers(answer.headers)
    headers.set('x-ratelimit-limit-tokens', '1000')
    headers.set('x-ratelimit-remaining-tokens', String(Math.round((remaining[key] ?? 1) * 1000)))
    headers.set('x-ratelimit-reset-tokens', '30s')
    return new Response(answer.body, { status: answer.status, headers })
  })
})
afterEach(async () => {
  remaining = {}
  upstream.requests.length = 0
  await Promise.all(proxies.splice(0).map(proxy => proxy.close()))
})
afterAll(async () => {
  const cleanup = await createProxyStorage({ driver: 'redis', base })
  for (const key of await cleanup.getKeys()) await cleanup.removeItem(key)
  await cleanup.dispose()
  await upstream.close()
})

async function proxyWith(strategy: string, storage?: Awaited<ReturnType<typeof createProxyStorage>>) {
  const proxy = await startTestProxy({
    'api-keys': ['client'],
    'remote-management': { 'secret-key': secret },
    routing: { strategy },
    'compat-provider': [{ name: 'pool', 'base-url': `${upstream.url}/v1`, 'api-key-entries': ['a', 'b', 'c'].map(key => ({ 'api-key': key })), models: [{ name: 'up', alias: 'm' }] }],
  }, [], storage)
  proxies.push(proxy)
  return proxy
}

const ask = (proxy: TestProxy) => new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'client', maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
const usedKeys = () => upstream.requests.map(request => String(request.headers.authorization).replace('Bearer ', ''))

describe('strategy quota-aware', () => {
  it('learns each account\'s window from its rate-limit headers and prefers the most headroom', async () => {
    remaining = { a: 0.1, b: 0.9, c: 0.5 }
    const proxy = await proxyWith('quota-aware')
    for (let i = 0; i < 6; i++) await ask(proxy)
    // Nothing known yet: round-robin among equals; then b (90 % left) every time.
    expect(usedKeys()).toEqual(['a', 'b', 'c', 'b', 'b', 'b'])
    remaining.b = 0.05
    for (let i = 0; i < 3; i++) await ask(proxy)
    expect(usedKeys().slice(6)).toEqual(['b', 'c', 'c'])

    const overview = await (await fetch(`${proxy.url}/v0/management/routing`, { headers: { authorization: `Bearer ${secret}` } })).json()
    const b = overview.credentials.find((c: { id: string }) => c.id === 'compat:pool:0.1')
    expect(overview.strategy).toBe('quota-aware')
    expect(overview.credentials).toHaveLength(3)
    expect(overview.credentials.map((c: { headroom: number }) => c.headroom).sort()).toEqual([0.05, 0.1, 0.5])
    expect(b.windows.tokens).toMatchObject({ limit: 1000, remaining: 50, used: expect.closeTo(0.95) })
  })

  it('round-robin ignores the windows (the spec\'s default stays)', async () => {
    remaining = { a: 0.1, b: 0.9, c: 0.5 }
    const proxy = await proxyWith('round-robin')
    for (let i = 0; i < 6; i++) await ask(proxy)
    expect(usedKeys()).toEqual(['a', 'b', 'c', 'a', 'b', 'c'])
  })

  it('two instances on one Redis share the windows', async () => {
    remaining = { a: 0.2, b: 0.3, c: 0.8 }
    const one = await proxyWith('quota-aware', await createProxyStorage({ driver: 'redis', base }))
    const two = await proxyWith('quota-aware', await createProxyStorage({ driver: 'redis', base }))
    for (let i = 0; i < 3; i++) await ask(one)
    await new Promise(resolve => setTimeout(resolve, 1200))
    await ask(two)
    expect(usedKeys().at(-1)).toBe('c')
  })
})
