import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

/**
 * A credential the upstream refuses (401, 403 not about quota: a revoked key) cools down for the model,
 * so the requests after it stop paying a failed attempt there; while it cools it stays a last resort, so
 * a client whose only credential is refused gets the vendor's refusal (as a 502: the proxy's credential, not the
 * client's), never a 429 about cooldowns.
 */
let refused = new Set<string>()
let upstream: MockUpstream
const proxies: TestProxy[] = []
beforeAll(async () => {
  upstream = await startMockUpstream(async (request) => {
    const key = (request.headers.get('authorization') ?? '').replace('Bearer ', '')
    if (refused.has(key)) return new Response(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }), { status: 401, headers: { 'content-type': 'application/json' } })
    return openaiMock(request)
  })
})
afterEach(async () => {
  refused = new Set()
  upstream.requests.length = 0
  await Promise.all(proxies.splice(0).map(proxy => proxy.close()))
})
afterAll(() => upstream.close())

async function proxyWith(keys: string[]) {
  const proxy = await startTestProxy({
    'api-keys': ['client'],
    'remote-management': { 'secret-key': 'admin' },
    'compat-provider': [{ name: 'pool', 'base-url': `${upstream.url}/v1`, 'api-key-entries': keys.map(key => ({ 'api-key': key })), models: [{ name: 'up-model', alias: 'm' }] }],
  })
  proxies.push(proxy)
  return proxy
}
const chat = (proxy: TestProxy) => fetch(`${proxy.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
})
const usedKeys = () => upstream.requests.map(request => String(request.headers.authorization).replace('Bearer ', ''))

describe('credentials the upstream refuses', () => {
  it('a revoked key is tried once, then cools down while the others answer', async () => {
    const proxy = await proxyWith(['a', 'revoked', 'c'])
    refused.add('revoked')
    for (let i = 0; i < 8; i++) expect((await chat(proxy)).status).toBe(200)
    // Round robin reaches the revoked key once, fails over to the next; afterwards it is skipped.
    expect(usedKeys().filter(key => key === 'revoked')).toEqual(['revoked'])
    expect(usedKeys().length).toBe(9)
    const listing = await fetch(`${proxy.url}/v0/management/credentials`, { headers: { authorization: 'Bearer admin' } }).then(response => response.json() as Promise<any>)
    const revoked = listing.credentials.find((credential: { id: string }) => credential.id === 'compat:pool:0.1')
    expect(revoked.state).toBe('cooldown')
    expect(revoked.cooldowns).toEqual([expect.objectContaining({ model: 'up-model', failures: 1, refused: true })])
  })

  it('once the key works again it is used again after its cooldown, and success resets it', async () => {
    const proxy = await proxyWith(['a', 'revoked'])
    refused.add('revoked')
    for (let i = 0; i < 3; i++) expect((await chat(proxy)).status).toBe(200)
    refused.clear()
    await new Promise(resolve => setTimeout(resolve, 1100)) // the first cooldown: 1 s
    upstream.requests.length = 0
    for (let i = 0; i < 4; i++) expect((await chat(proxy)).status).toBe(200)
    expect(usedKeys().sort()).toEqual(['a', 'a', 'revoked', 'revoked'])
  })

  it('the only credential refused: every request gets the vendor\'s refusal (tried as a last resort), not a 429', async () => {
    const proxy = await proxyWith(['revoked'])
    refused.add('revoked')
    for (let i = 0; i < 3; i++) {
      const response = await chat(proxy)
      // An upstream refusing the proxy's credential is an upstream failure to the client (502), with the vendor's words.
      expect(response.status).toBe(502)
      expect((await response.json() as any).error.message).toContain('Incorrect API key')
    }
    expect(usedKeys()).toEqual(['revoked', 'revoked', 'revoked'])
  })

  it('two refused: the one refused longest ago is the last resort, and a working one wins over both', async () => {
    const proxy = await proxyWith(['r1', 'r2'])
    refused = new Set(['r1', 'r2'])
    expect((await chat(proxy)).status).toBe(502)
    expect(usedKeys()).toEqual(['r1', 'r2'])
    upstream.requests.length = 0
    refused.delete('r2')
    // Both cool down; r1's cooldown ends first, so it is tried first; it fails and r2 (working again) answers.
    expect((await chat(proxy)).status).toBe(200)
    expect(usedKeys()).toEqual(['r1', 'r2'])
  })
})
