import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { responsesMock } from '../../playground/mock-upstream/responses.ts'

let beta: MockUpstream
let gamma: MockUpstream
/** Status the beta (messages) accounts answer with; undefined = a normal reply. */
let betaFails: number | undefined
const proxies: TestProxy[] = []
const secret = 'mgmt-secret'

beforeAll(async () => {
  beta = await startMockUpstream(request => betaFails
    ? new Response(JSON.stringify({ type: 'error', error: { type: betaFails === 429 ? 'rate_limit_error' : 'api_error', message: 'unavailable' } }), { status: betaFails, headers: { 'content-type': 'application/json', 'retry-after': '600' } })
    : messagesMock(request))
  gamma = await startMockUpstream(request => responsesMock(request))
})
afterEach(async () => {
  betaFails = undefined
  beta.requests.length = 0
  gamma.requests.length = 0
  await Promise.all(proxies.splice(0).map(proxy => proxy.close()))
})
afterAll(async () => {
  await beta.close()
  await gamma.close()
})

async function proxyWith(extra: Record<string, unknown> = {}) {
  const proxy = await startTestProxy({
    'api-keys': ['client'],
    'usage-statistics-enabled': true,
    'remote-management': { 'secret-key': secret },
    'beta-api-key': ['b1', 'b2'].map(key => ({ 'api-key': key, 'base-url': beta.url, models: [{ name: 'mock-claude', alias: 'claude' }] })),
    'gamma-api-key': [{ 'api-key': 'g1', 'base-url': `${gamma.url}/v1`, models: [{ name: 'mock-codex', alias: 'codex' }] }],
    fallbacks: { claude: ['codex'] },
    'quota-exceeded': { 'switch-project': true, 'switch-preview-model': false },
    ...extra,
  })
  proxies.push(proxy)
  return proxy
}

const sdkFor = (proxy: TestProxy) => new Anthropic({ baseURL: proxy.url, apiKey: 'client', maxRetries: 0 })

describe('fallback chains across families', () => {
  it('every messages account out of quota: the responses-family model answers, the client sees its own model name', async () => {
    const proxy = await proxyWith()
    betaFails = 429
    const { data, response } = await sdkFor(proxy).messages.create({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'hello there' }] }).withResponse()
    expect(data.model).toBe('claude')
    expect(data.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('hello there') })
    expect(response.headers.get('x-proxy-served-model')).toBe('codex')
    expect(beta.requests.map(r => r.headers['x-api-key'])).toEqual(['b1', 'b2'])
    // The request was translated for the other family (Responses `input`).
    const sent = JSON.parse(gamma.requests[0]!.body)
    expect(sent.model).toBe('mock-codex')
    expect(Array.isArray(sent.input)).toBe(true)
    const { records } = await (await fetch(`${proxy.url}/v0/management/usage/export`, { headers: { authorization: `Bearer ${secret}` } })).json()
    expect(records.at(-1)).toMatchObject({ model: 'claude', servedModel: 'codex', upstreamModel: 'mock-codex', family: 'gamma', status: 200 })
  })

  it('streams too, and a cooling-down model goes straight to the fallback without calling its accounts', async () => {
    const proxy = await proxyWith()
    betaFails = 503
    const stream = sdkFor(proxy).messages.stream({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'stream please' }] })
    const final = await stream.finalMessage()
    expect(final.model).toBe('claude')
    expect(final.content.map(block => block.type === 'text' ? block.text : '').join('')).toContain('stream please')
    // 503 is retried on each account (request-retry), then the model gives up.
    expect(beta.requests.length).toBeGreaterThanOrEqual(2)

    betaFails = 429
    await sdkFor(proxy).messages.create({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'cool them down' }] })
    const calls = beta.requests.length
    const again = await sdkFor(proxy).messages.create({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'again' }] }).withResponse()
    expect(again.response.headers.get('x-proxy-served-model')).toBe('codex')
    expect(beta.requests.length).toBe(calls)
  })

  it('a client error is not a reason to fall back; without fallbacks the quota error reaches the client', async () => {
    const proxy = await proxyWith()
    betaFails = 400
    await expect(sdkFor(proxy).messages.create({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'bad' }] })).rejects.toMatchObject({ status: 400 })
    expect(gamma.requests).toHaveLength(0)

    const plain = await proxyWith({ fallbacks: {} })
    betaFails = 429
    await expect(sdkFor(plain).messages.create({ model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'quota' }] })).rejects.toMatchObject({ status: 429 })
    expect(gamma.requests).toHaveLength(0)
  })
})
