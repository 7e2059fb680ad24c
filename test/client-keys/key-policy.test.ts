import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import { defineProxyPlugin } from 'model-proxy'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { clientCall, clientHeaders, type ClientFormat } from '../helpers/client-formats.ts'
import { startLoggedProxy, type LoggedProxy } from './logged-proxy.ts'

/**
 * What a named key may be served by: the model that serves (after rules and fallbacks) is checked
 * against its models, and, for a key with a budget, against the prices (an unpriced model is refused
 * unless `client-key-policy.unpriced-models: allow`). Rules name keys by name, plain keys by value or
 * id; plain keys are told apart by that id in `/usage` and the recorder.
 */
const secret = 'key-policy-admin'
let upstream: MockUpstream
let proxy: LoggedProxy
const idOf = (key: string) => `key-${createHash('sha256').update(key).digest('hex').slice(0, 10)}`

/** Another plugin's `route-resolve` hook, which runs after the built-in ones and sends requests to `big`. */
const sendToBig = defineProxyPlugin({
  name: 'send-to-big',
  setup(kernel) {
    kernel.hooks.hook('route-resolve', (ctx) => {
      if (ctx.request.event.req.headers.get('x-route') !== 'plugin') return
      ctx.candidates = kernel.models.get('big')!
      ctx.request.servedModel = 'big'
    })
  },
})

beforeAll(async () => {
  upstream = await startMockUpstream(request => request.clone().json().then((body: { model?: string }) => body.model === 'up-broken'
    ? Response.json({ error: { message: 'down', type: 'server_error' } }, { status: 500 })
    : openaiMock(request)))
  proxy = await startLoggedProxy({
    'api-keys': ['dev1', 'dev2'],
    'remote-management': { 'secret-key': secret },
    'usage-statistics-enabled': true,
    'request-retry': 0,
    recorder: { mode: 'all' },
    'compat-provider': [{
      name: 'pool', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }],
      models: ['priced', 'big', 'small', 'broken'].map(name => ({ name: `up-${name}`, alias: name })).concat({ name: 'vendor/self-hosted', alias: 'free' }),
    }],
    'model-prices': Object.fromEntries(['priced', 'big', 'small', 'broken'].map(name => [name, { input: 1, output: 2 }])),
    'client-keys': [
      { name: 'budgeted', key: 'budget-key-1', budget: { usd: 10, period: 'day' } },
      { name: 'unlimited', key: 'open-key-1' },
      { name: 'alice', key: 'alice-key-1', models: ['priced', 'small', 'broken'] },
    ],
    routing: {
      rules: [
        { name: 'alice to big', 'client-keys': ['alice'], headers: { 'x-route': '^big$' }, model: 'big' },
        { name: 'alice to small', 'client-keys': ['alice'], headers: { 'x-route': '^big$' }, model: 'small' },
        { name: 'by id', 'client-keys': [idOf('dev2')], headers: { 'x-route': '^id$' }, model: 'small' },
        { name: 'by value', 'client-keys': ['dev1'], headers: { 'x-route': '^value$' }, model: 'big' },
        { name: 'budget to free', 'client-keys': ['budgeted'], headers: { 'x-route': '^free$' }, model: 'free' },
      ],
    },
    fallbacks: { broken: ['big', 'small'] },
  }, [sendToBig])
}, 60_000)
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const admin = async (path: string, body?: unknown) => {
  const response = await fetch(`${proxy.url}/v0/management${path}`, {
    method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(response.status).toBe(200)
  return await response.json() as any
}
const openai = (key: string, headers: Record<string, string> = {}) => new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: key, maxRetries: 0, defaultHeaders: headers })
const chat = (key: string, model: string, headers: Record<string, string> = {}) => openai(key, headers).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }).withResponse()
const lastUpstreamModel = () => JSON.parse(upstream.requests.at(-1)!.body).model as string
const metrics = async () => await (await fetch(`${proxy.url}/metrics`)).text()

describe('a key with a budget and a model without a price', () => {
  const formats: ClientFormat[] = ['chat', 'messages', 'responses', 'generate-sse']

  it.each(formats)('is refused by default in the %s format: 403 naming the model and model-prices', async (format) => {
    const { path, body } = clientCall(format, 'free', false)
    const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: clientHeaders('budget-key-1'), body: JSON.stringify(body) })
    expect(response.status).toBe(403)
    const answer = await response.json() as any
    const kind = format === 'messages' ? answer.error.type : format.startsWith('generate') ? answer.error.status : answer.error.type
    expect(kind).toBe(format.startsWith('generate') ? 'PERMISSION_DENIED' : 'permission_error')
    if (format === 'chat' || format === 'responses') expect(answer.error.code).toBe('model_unpriced')
    expect(answer.error.message).toContain('"free"')
    expect(answer.error.message).toContain('model-prices')
    expect(answer.error.message).toContain('client-key-policy.unpriced-models')
  })

  it('the SDKs surface it as a permission error with the message (Anthropic, Google GenAI, OpenAI)', async () => {
    const anthropic = new Anthropic({ baseURL: proxy.url, apiKey: 'budget-key-1', maxRetries: 0 })
    const refused = await anthropic.messages.create({ model: 'free', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(Anthropic.PermissionDeniedError)
    expect((refused as Error).message).toContain('model-prices')
    const genai = new GoogleGenAI({ apiKey: 'budget-key-1', httpOptions: { baseUrl: proxy.url } })
    await expect(genai.models.generateContent({ model: 'free', contents: 'hi' })).rejects.toMatchObject({ status: 403, message: expect.stringContaining('model-prices') })
    await expect(openai('budget-key-1').chat.completions.create({ model: 'free', messages: [{ role: 'user', content: 'hi' }], stream: true }))
      .rejects.toMatchObject({ status: 403, code: 'model_unpriced' })
  })

  it('a key without a budget is served; the budget key is served by priced models and does not list the unpriced one', async () => {
    const before = upstream.requests.length
    expect((await chat('open-key-1', 'free')).response.status).toBe(200)
    expect(lastUpstreamModel()).toBe('vendor/self-hosted')
    expect((await chat('budget-key-1', 'priced')).response.status).toBe(200)
    expect(upstream.requests.length).toBe(before + 2)
    const listed = await openai('budget-key-1').models.list()
    expect(listed.data.map(model => model.id)).not.toContain('free')
    expect(listed.data.map(model => model.id)).toContain('priced')
  })

  it('a rule to the unpriced model is skipped for the budget key: its own model serves', async () => {
    const { response } = await chat('budget-key-1', 'priced', { 'x-route': 'free' })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-proxy-served-model')).toBeNull()
    expect(lastUpstreamModel()).toBe('up-priced')
  })

  it('is logged once, counted in a metric and listed by the management API', async () => {
    expect(proxy.lines.filter(line => line.includes('"free" has no price'))).toHaveLength(1)
    expect(await metrics()).toMatch(/proxy_client_key_unpriced_requests_total\{model="free",decision="refused"\} 7/)
    expect(await metrics()).toMatch(/proxy_client_key_rejections_total\{key="budgeted",reason="unpriced"\} 7/)
    const view = await admin('/unpriced-models')
    expect(view.policy).toEqual({ 'on-error': 'open', 'unpriced-models': 'refuse' })
    expect(view['keys-with-budget']).toEqual(['budgeted'])
    expect(view.models).toEqual([expect.objectContaining({ model: 'free', upstreams: ['vendor/self-hosted'], served: true, refused: 7, allowed: 0 })])
  })

  it('with unpriced-models: allow it is served (at $0) and counted as allowed', async () => {
    const { kernel } = proxy.proxy
    await kernel.applyConfig({ ...kernel.config, 'client-key-policy': { 'on-error': 'open', 'unpriced-models': 'allow' } })
    try {
      const { response } = await chat('budget-key-1', 'free')
      expect(response.status).toBe(200)
      expect(await metrics()).toMatch(/proxy_client_key_unpriced_requests_total\{model="free",decision="allowed"\} 1/)
      expect((await admin('/unpriced-models')).models[0]).toMatchObject({ model: 'free', refused: 7, allowed: 1 })
    } finally {
      await kernel.applyConfig({ ...kernel.config, 'client-key-policy': { 'on-error': 'open', 'unpriced-models': 'refuse' } })
    }
  })
})

describe('a key\'s models are checked against the model that serves', () => {
  it('a rule to a model the key may not use is skipped; the next matching rule serves (Anthropic SDK)', async () => {
    const sdk = new Anthropic({ baseURL: proxy.url, apiKey: 'alice-key-1', maxRetries: 0, defaultHeaders: { 'x-route': 'big' } })
    const { response } = await sdk.messages.create({ model: 'priced', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }).withResponse()
    expect(response.headers.get('x-proxy-served-model')).toBe('small')
    expect(lastUpstreamModel()).toBe('up-small')
    expect(proxy.lines.some(line => line.includes('alice to big names big, which this client key may not use'))).toBe(true)
  })

  it('a fallback to a model the key may not use is skipped: the next one serves', async () => {
    const sent = upstream.requests.length
    const { response } = await chat('alice-key-1', 'broken')
    expect(response.status).toBe(200)
    expect(response.headers.get('x-proxy-served-model')).toBe('small')
    expect(upstream.requests.slice(sent).map(request => JSON.parse(request.body).model)).toEqual(['up-broken', 'up-small'])
  })

  it('a model the key may not use, with no rule to another, is refused with 403', async () => {
    await expect(chat('alice-key-1', 'big')).rejects.toMatchObject({ status: 403, code: 'model_not_allowed' })
  })

  it('another plugin\'s route-resolve hook sending the key to a model it may not use: refused before anything is sent', async () => {
    const sent = upstream.requests.length
    await expect(chat('alice-key-1', 'priced', { 'x-route': 'plugin' })).rejects.toMatchObject({ status: 403, code: 'model_not_allowed', message: expect.stringContaining('"big"') })
    expect(upstream.requests.length).toBe(sent)
    expect((await chat('dev1', 'priced', { 'x-route': 'plugin' })).response.headers.get('x-proxy-served-model')).toBe('big')
  })

  it('the route preview says which rules and fallbacks were skipped and why, for a key named by its name', async () => {
    const ruled = await admin('/route-preview', { request: { model: 'priced', messages: [{ role: 'user', content: 'hi' }] }, headers: { 'x-route': 'big' }, 'client-key': 'alice' })
    expect(ruled['client-key']).toEqual({ kind: 'named', name: 'alice' })
    expect(ruled.rule).toMatchObject({ name: 'alice to small', model: 'small' })
    expect(ruled.skipped).toEqual([expect.stringContaining('alice to big names big, which this client key may not use')])
    const chain = await admin('/route-preview', { request: { model: 'broken', messages: [{ role: 'user', content: 'hi' }] }, 'client-key': 'alice-key-1' })
    expect(chain.fallbacks).toEqual([
      expect.objectContaining({ model: 'big', skipped: expect.stringContaining('may not use model "big"') }),
      expect.not.objectContaining({ skipped: expect.anything() }),
    ])
    const unpriced = await admin('/route-preview', { request: { model: 'free', messages: [{ role: 'user', content: 'hi' }] }, 'client-key': 'budgeted' })
    expect(unpriced.refused).toContain('model-prices')
    const plain = await admin('/route-preview', { request: { model: 'priced', messages: [{ role: 'user', content: 'hi' }] }, 'client-key': 'dev2' })
    expect(plain['client-key']).toEqual({ kind: 'plain', id: idOf('dev2') })
    expect(JSON.stringify(plain)).not.toContain('"dev2"')
  })
})

describe('routing.rules[].client-keys', () => {
  it('matches a named key by its name, a plain key by its value and by its id', async () => {
    expect((await chat('alice-key-1', 'priced', { 'x-route': 'big' })).response.headers.get('x-proxy-served-model')).toBe('small')
    expect((await chat('dev1', 'priced', { 'x-route': 'value' })).response.headers.get('x-proxy-served-model')).toBe('big')
    expect((await chat('dev2', 'priced', { 'x-route': 'id' })).response.headers.get('x-proxy-served-model')).toBe('small')
    // Another key's requests do not match those rules.
    expect((await chat('dev2', 'priced', { 'x-route': 'value' })).response.headers.get('x-proxy-served-model')).toBeNull()
    expect((await chat('dev1', 'priced', { 'x-route': 'id' })).response.headers.get('x-proxy-served-model')).toBeNull()
  })
})

describe('plain api-keys are told apart by a stable id', () => {
  it('in /usage and in the recorder\'s key filter, short keys included; never a mask shared by all', async () => {
    const counts = async () => {
      const byKey = (await admin('/usage')).usage.by_client_key as Record<string, { requests: number }>
      return [byKey[idOf('dev1')]?.requests ?? 0, byKey[idOf('dev2')]?.requests ?? 0]
    }
    const [dev1, dev2] = await counts()
    for (const key of ['dev1', 'dev2', 'dev2']) expect((await chat(key, 'priced')).response.status).toBe(200)
    await expect.poll(counts).toEqual([dev1! + 1, dev2! + 2])
    const { usage } = await admin('/usage')
    expect(Object.keys(usage.by_client_key)).toEqual(expect.arrayContaining([idOf('dev1'), idOf('dev2'), 'alice', 'budgeted']))
    expect(Object.keys(usage.by_client_key)).not.toContain('****')
    expect(JSON.stringify(usage)).not.toMatch(/"dev[12]"/)
    await expect.poll(async () => (await admin(`/requests?key=${idOf('dev2')}`)).requests.length).toBeGreaterThanOrEqual(4)
    const rows = (await admin(`/requests?key=${idOf('dev2')}`)).requests as Array<{ clientKey?: string; keyName?: string }>
    expect(rows.every(row => row.clientKey === idOf('dev2') && row.keyName === undefined)).toBe(true)
    const named = (await admin('/requests?key=alice')).requests as Array<{ keyName?: string }>
    expect(named.length).toBeGreaterThan(0)
    expect(named.every(row => row.keyName === 'alice')).toBe(true)
  })
})
