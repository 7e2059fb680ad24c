import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startConnectProxy, startSocksProxy, type ForwardProxy } from '../helpers/forward-proxies.ts'
import { closedPort } from '../helpers/redis-server.ts'

let upstream: MockUpstream
let connect: ForwardProxy
let socks: ForwardProxy
const proxies: TestProxy[] = []

beforeAll(async () => {
  upstream = await startMockOpenAI()
  connect = await startConnectProxy({ user: 'alice', pass: 's3cret' })
  socks = await startSocksProxy({ user: 'bob', pass: 'hunter2' })
})
afterAll(async () => {
  await Promise.all(proxies.map(proxy => proxy.close()))
  await Promise.all([upstream.close(), connect.close(), socks.close()])
})

async function chatThrough(config: Record<string, unknown>, entry: Record<string, unknown> = {}) {
  const proxy = await startTestProxy({
    'api-keys': ['k'],
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up', ...entry }], models: [{ name: 'mock-gpt', alias: '' }] }],
    ...config,
  })
  proxies.push(proxy)
  return fetch(`${proxy.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock-gpt', messages: [{ role: 'user', content: 'via proxy' }] }),
  })
}

const upstreamHostPort = () => upstream.url.replace('http://', '')

describe('outbound proxies (rule 13)', () => {
  it('global http:// proxy with user:pass (CONNECT)', async () => {
    const response = await chatThrough({ 'proxy-url': connect.url })
    expect(response.status, await response.clone().text()).toBe(200)
    expect(connect.connections).toContain(upstreamHostPort())
  })

  it('global socks5:// proxy with user:pass', async () => {
    const response = await chatThrough({ 'proxy-url': socks.url })
    expect(response.status).toBe(200)
    expect(socks.connections).toContain(upstreamHostPort())
  })

  it("an entry's own proxy-url overrides the global one", async () => {
    // A fresh SOCKS server: pooled keep-alive sockets of the earlier tests would hide a new tunnel.
    const own = await startSocksProxy()
    try {
      const before = connect.connections.length
      expect((await chatThrough({ 'proxy-url': connect.url }, { 'proxy-url': own.url })).status).toBe(200)
      expect(own.connections).toEqual([upstreamHostPort()])
      expect(connect.connections.length).toBe(before)
    } finally {
      await own.close()
    }
  })

  it("an entry's empty proxy-url disables the global one", async () => {
    const own = await startConnectProxy()
    try {
      expect((await chatThrough({ 'proxy-url': own.url }, { 'proxy-url': '' })).status).toBe(200)
      expect(own.connections).toEqual([])
      // and the same fresh proxy does see traffic when the entry does not opt out
      expect((await chatThrough({ 'proxy-url': own.url })).status).toBe(200)
      expect(own.connections).toEqual([upstreamHostPort()])
    } finally {
      await own.close()
    }
  })

  it('wrong proxy credentials fail the request without leaking them', async () => {
    const response = await chatThrough({ 'proxy-url': connect.url.replace('s3cret', 'wrong'), 'request-retry': 0 })
    expect(response.status).toBe(502)
    expect(await response.text()).not.toContain('wrong')
  })

  it.each(['http', 'socks5'])('a %s outbound proxy that is down: the client hears it was the outbound proxy, never its address', async (scheme) => {
    const port = await closedPort()
    const response = await chatThrough({ 'proxy-url': `${scheme}://127.0.0.1:${port}`, 'request-retry': 0 })
    expect(response.status).toBe(502)
    const body = await response.json() as { error: { message: string } }
    expect(body.error.message).toMatch(/outbound proxy/)
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/)
  })

  it('an upstream that is down, no proxy: the reason without the address', async () => {
    const port = await closedPort()
    const proxy = await startTestProxy({
      'api-keys': ['k'], 'request-retry': 0,
      'compat-provider': [{ name: 'gone', 'base-url': `http://127.0.0.1:${port}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt', alias: '' }] }],
    })
    proxies.push(proxy)
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-gpt', messages: [{ role: 'user', content: 'x' }] }),
    })
    expect(response.status).toBe(502)
    const body = await response.json() as { error: { message: string } }
    expect(body.error.message).toBe('upstream connection failed: connection refused')
  })
})
