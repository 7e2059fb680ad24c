import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

const secret = 'mgmt-models-secret'
let upstream: MockUpstream
let proxy: TestProxy

beforeAll(async () => {
  // Key `bad` answers 503: its attempts are errors, the request then goes to `good`.
  upstream = await startMockUpstream(request => request.headers.get('authorization') === 'Bearer bad'
    ? new Response(JSON.stringify({ error: { message: 'down', type: 'server_error' } }), { status: 503, headers: { 'content-type': 'application/json' } })
    : openaiMock(request))
  proxy = await startTestProxy({
    'api-keys': ['client'],
    'remote-management': { 'secret-key': secret },
    'request-retry': 1,
    routing: { strategy: 'fill-first' },
    'client-keys': [{ key: 'sk-team-key-0001', name: 'team', owner: 'ana', models: ['fast*'], rpm: 5, budget: { usd: 3, period: 'day' } }],
    'compat-provider': [{
      name: 'pool', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'bad' }, { 'api-key': 'good' }],
      models: [{ name: 'gpt-5.1', alias: 'fast' }, { name: 'hidden-model' }, { name: 'plain' }], 'excluded-models': ['hidden-*'],
    }],
  })
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

const management = async (path: string) => {
  const response = await fetch(`${proxy.url}/v0/management${path}`, { headers: { authorization: `Bearer ${secret}` } })
  return { status: response.status, body: await response.json() as any }
}

describe('GET /v0/management/models', () => {
  it('every served model with family, upstream name (alias) and catalog limits; excluded ones absent', async () => {
    const { status, body } = await management('/models')
    expect(status).toBe(200)
    expect(body['api-keys']).toBe(1)
    expect(body.models.map((m: any) => m.id)).toEqual(['fast', 'plain'])
    expect(body.models[0]).toEqual({ id: 'fast', 'alias-of': ['gpt-5.1'], upstreams: [{ family: 'compat', provider: 'pool', model: 'gpt-5.1', credentials: 2 }], 'context-window': 400_000, 'max-output': 128_000, available: true })
    expect(body.models[1]['alias-of']).toEqual([])
    expect(body.keys).toEqual([{ name: 'team', owner: 'ana', models: ['fast*'], rpm: 5, budget: { usd: 3, period: 'day' }, state: 'active' }])
  })

  it('?key= narrows to what the named key may use; an unknown name is a 404', async () => {
    expect((await management('/models?key=team')).body.models.map((m: any) => m.id)).toEqual(['fast'])
    const unknown = await management('/models?key=nobody')
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toContain('nobody')
  })
})

describe('GET /v0/management/credentials', () => {
  it('counts each credential\'s attempts (a retried failure is its own) and latency; lists only served models', async () => {
    const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'client', maxRetries: 0 })
    for (let i = 0; i < 2; i++) await client.chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] })
    const { body } = await management('/credentials')
    const [bad, good] = body.credentials
    expect(bad.stats).toMatchObject({ success: 0, errors: expect.any(Number), 'last-error': { status: 503 } })
    expect(bad.stats.errors).toBeGreaterThanOrEqual(1)
    expect(good.stats).toMatchObject({ success: 2, errors: 0 })
    expect(good.stats['latency-ms']).toBeGreaterThanOrEqual(0)
    expect(good.stats['first-byte-ms']).toBeGreaterThanOrEqual(0)
    expect(good.models).toEqual(['fast', 'plain'])
    expect(good['excluded-models']).toEqual(['hidden-*'])
  })
})
