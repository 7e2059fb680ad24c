import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'

let upstream: MockUpstream
let one: TestProxy
let two: TestProxy
let quota = true
const base = `proxy-test-routing-${process.pid}-${Date.now()}`

beforeAll(async () => {
  upstream = await startMockUpstream((request) => quota
    ? new Response(JSON.stringify({ error: { message: 'quota exceeded' } }), { status: 429, headers: { 'retry-after': '30' } })
    : openaiMock(request))
  const config = {
    'api-keys': ['client'],
    'max-retry-interval': 0,
    'quota-exceeded': { 'switch-project': true, 'switch-preview-model': false },
    'compat-provider': [
      { name: 'shared', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'only-key' }], models: [{ name: 'up', alias: 'm' }] },
      // A name unstorage would rewrite in a key (`/` becomes `:`, `?` cuts the rest).
      { name: 'eu/west?beta', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'odd-key' }], models: [{ name: 'up-w', alias: 'w' }] },
    ],
  }
  // Two instances, no shared memory: each has its own kernel, routing state and Redis connection.
  one = await startTestProxy(config, [], await createProxyStorage({ driver: 'redis', base }))
  two = await startTestProxy(config, [], await createProxyStorage({ driver: 'redis', base }))
})
afterAll(async () => {
  const cleanup = await createProxyStorage({ driver: 'redis', base })
  for (const key of await cleanup.getKeys()) await cleanup.removeItem(key)
  await cleanup.dispose()
  await one.close()
  await two.close()
  await upstream.close()
})

const chat = (proxy: TestProxy, model = 'm') => fetch(`${proxy.url}/v1/chat/completions`, {
  method: 'POST',
  headers: { authorization: 'Bearer client', 'content-type': 'application/json' },
  body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
})

describe('routing state shared through Redis', () => {
  it('a cooldown set by one instance is honoured by the other within 1 s', async () => {
    expect((await chat(one)).status).toBe(429)
    expect(upstream.requests).toHaveLength(1)
    quota = false
    await new Promise(resolve => setTimeout(resolve, 1000))
    const response = await chat(two)
    expect(response.status).toBe(429)
    expect((await response.json()).error.code).toBe('model_cooldown')
    // The second instance answered from the shared cooldown without calling the upstream.
    expect(upstream.requests).toHaveLength(1)
  })

  it('a credential whose provider name has `/` and `?` is shared under its own key', async () => {
    quota = true
    const sent = upstream.requests.length
    expect((await chat(one, 'w')).status).toBe(429)
    quota = false
    await new Promise(resolve => setTimeout(resolve, 1000))
    const response = await chat(two, 'w')
    expect(response.status).toBe(429)
    expect((await response.json()).error.code).toBe('model_cooldown')
    expect(upstream.requests.length).toBe(sent + 1)
  })
})
