import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import { randomUUID } from 'node:crypto'
import type { Storage } from 'unstorage'
import { createProxyStorage } from '../../core/storage/storage.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import type { TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { clientKey, eventually, manage, recorderProxy } from './helpers.ts'

let compat: MockUpstream
let beta: MockUpstream
const proxies: TestProxy[] = []

beforeAll(async () => {
  compat = await startMockUpstream(openaiMock)
  beta = await startMockUpstream(messagesMock)
})
afterEach(async () => { await Promise.all(proxies.splice(0).map(proxy => proxy.close())) })
afterAll(async () => { await Promise.all([compat?.close(), beta?.close()]) })

async function start(recorder: Record<string, unknown>, storage?: Storage, extra?: Record<string, unknown>, mocks = { compat, beta }) {
  const proxy = await recorderProxy(mocks, recorder, storage, extra)
  proxies.push(proxy)
  return proxy
}

/** A chat request through the proxy; `model` nothing serves fails with 404. Returns its request id. */
async function ask(proxy: TestProxy, model = 'via-compat'): Promise<string> {
  const client = new OpenAI({ apiKey: clientKey, baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  const { response } = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }).withResponse().catch(error => ({ response: { headers: error.headers as Headers } }))
  return response.headers.get('x-request-id')!
}
const ids = async (proxy: TestProxy, query = '') => (await manage(proxy, `/requests${query}`)).body.requests.map((row: { id: string }) => row.id)

describe('recorder modes', () => {
  it('off: no hook is registered and nothing is kept', async () => {
    const proxy = await start({ mode: 'off' })
    expect(proxy.proxy.kernel.hooks.listens('upstream-reply')).toBe(false)
    await ask(proxy)
    expect(await manage(proxy, '/requests')).toMatchObject({ status: 200, body: { mode: 'off', total: 0, requests: [] } })
  })

  it('errors: only failed requests are kept; turning it on at a reload attaches the hooks', async () => {
    const proxy = await start({ mode: 'errors' })
    const ok = await ask(proxy)
    const failed = await ask(proxy, 'no-such-model')
    expect(await ids(proxy)).toEqual([failed])
    expect((await manage(proxy, `/requests/${ok}`)).status).toBe(404)
    const record = (await manage(proxy, `/requests/${failed}`)).body
    expect(record).toMatchObject({ status: 404, attempts: [], routing: { candidates: [] } })
    expect(JSON.parse(record.client.response.body.text).error.code).toBe('model_not_found')

    const { kernel } = proxy.proxy
    await kernel.applyConfig({ ...kernel.config, recorder: { ...(kernel.config as any).recorder, mode: 'off' } } as never)
    expect(kernel.hooks.listens('upstream-reply')).toBe(false)
    expect((await manage(proxy, `/requests/${failed}/replay`, { method: 'POST' })).status).toBe(409)
    await kernel.applyConfig({ ...kernel.config, recorder: { ...(kernel.config as any).recorder, mode: 'all' } } as never)
    const now = await ask(proxy)
    expect(await ids(proxy)).toEqual([now, failed])
  })

  it('sampled: a sample of 0 keeps none, 1 keeps every request', async () => {
    const none = await start({ mode: 'sampled', sample: 0 })
    await ask(none)
    expect(await ids(none)).toEqual([])
    const every = await start({ mode: 'sampled', sample: 1 })
    const id = await ask(every)
    expect(await ids(every)).toEqual([id])
  })

  it('retention keeps the newest max-records; pages run newest first', async () => {
    const proxy = await start({ mode: 'all', 'max-records': 3 })
    const sent: string[] = []
    for (let i = 0; i < 5; i++) {
      sent.push(await ask(proxy))
      // Each flush trims: wait for this one before the next, so the ring's order is the sending order.
      await manage(proxy, '/requests?limit=1')
    }
    const page = (await manage(proxy, '/requests?limit=2')).body
    expect(page.total).toBe(3)
    expect(page.requests.map((row: { id: string }) => row.id)).toEqual([sent[4], sent[3]])
    const rest = (await manage(proxy, `/requests?limit=2&cursor=${page.next}`)).body
    expect(rest.requests.map((row: { id: string }) => row.id)).toEqual([sent[2]])
    expect(rest.next).toBeUndefined()
    expect((await manage(proxy, `/requests/${sent[0]}`)).status).toBe(404)
    expect((await manage(proxy, '/requests?limit=0')).status).toBe(400)
  })

  it('body cap: a body past max-body-kb is cut, counted, and cannot be replayed or exported', async () => {
    const proxy = await start({ mode: 'all', 'max-body-kb': 1 })
    const client = new OpenAI({ apiKey: clientKey, baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    const { response } = await client.chat.completions.create({ model: 'via-compat', messages: [{ role: 'user', content: 'x'.repeat(3000) }] }).withResponse()
    const id = response.headers.get('x-request-id')!
    const record = (await manage(proxy, `/requests/${id}`)).body
    expect(record.client.request.body.text).toHaveLength(1024)
    expect(record.client.request.body.truncated).toBeGreaterThan(2000)
    expect(await manage(proxy, `/requests/${id}/replay`, { method: 'POST' })).toMatchObject({ status: 409, body: { message: expect.stringContaining('max-body-kb') } })
    expect((await manage(proxy, `/requests/${id}/fixture`)).status).toBe(409)
  })
})

describe('routing in a record', () => {
  it('a fallback to another family: each attempt names the model it served, the record the one that answered', async () => {
    const broken = await startMockUpstream(() => new Response(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }), { status: 503, headers: { 'content-type': 'application/json' } }))
    try {
      const proxy = await start({ mode: 'all' }, undefined, { fallbacks: { 'via-compat': ['via-beta'] } }, { compat: broken, beta })
      const id = await ask(proxy)
      const record = (await manage(proxy, `/requests/${id}`)).body
      expect(record).toMatchObject({ status: 200, model: 'via-compat', servedModel: 'via-beta', family: 'beta', routing: { model: 'via-compat', servedModel: 'via-beta' } })
      const models = record.attempts.map((attempt: { model: string; status: number; family: string }) => [attempt.model, attempt.family, attempt.status])
      expect(models.at(-1)).toEqual(['via-beta', 'beta', 200])
      expect(models.filter(([model]: [string]) => model === 'via-compat').every(([, family, status]: [string, string, number]) => family === 'compat' && status === 503)).toBe(true)
    } finally {
      await broken.close()
    }
  })
})

describe('replay of a format that names the model in its URL', () => {
  it('a generateContent request replays to another model in its path, and exports with the client key as a marker', async () => {
    const proxy = await start({ mode: 'all' })
    const response = await fetch(`${proxy.url}/v1beta/models/via-compat:generateContent?key=${clientKey}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) })
    expect(response.status).toBe(200)
    const id = response.headers.get('x-request-id')!
    const record = (await manage(proxy, `/requests/${id}`)).body
    expect(record.path).not.toContain(clientKey)
    const replay = await manage(proxy, `/requests/${id}/replay`, { method: 'POST', body: { model: 'via-beta' } })
    expect(replay.body).toMatchObject({ status: 200, request: { path: '/v1beta/models/via-beta:generateContent', family: 'beta', format: 'generate' } })
    const fixture = (await manage(proxy, `/requests/${id}/fixture`)).body
    expect(fixture).toMatchObject({ path: '/v1beta/models/via-compat:generateContent', headers: { authorization: 'Bearer <client-key>' } })
  })
})

describe('records in Redis', () => {
  const base = `test-recorder-${randomUUID()}`
  afterAll(async () => {
    const cleanup = await createProxyStorage({ driver: 'redis', base })
    await Promise.all((await cleanup.getKeys()).map(key => cleanup.removeItem(key)))
    await cleanup.dispose()
  })

  it('any instance shows any request, and a replay from the other one', async () => {
    const storages = await Promise.all([0, 1].map(() => createProxyStorage({ driver: 'redis', base })))
    const a = await start({ mode: 'all' }, storages[0])
    const b = await start({ mode: 'all' }, storages[1])
    const id = await ask(a)
    const row = await eventually(async () => (await manage(b, '/requests')).body.requests.find((r: { id: string }) => r.id === id))
    expect(row).toMatchObject({ model: 'via-compat', status: 200, keyName: 'team-a' })
    expect(row.instance).toBe(a.proxy.kernel.fleet.instanceId)
    const replay = await manage(b, `/requests/${id}/replay`, { method: 'POST', body: { model: 'via-beta' } })
    expect(replay.body).toMatchObject({ status: 200, request: { replayOf: id, family: 'beta', instance: b.proxy.kernel.fleet.instanceId } })
    const seen = await eventually(async () => (await ids(a, `?replay-of=${id}`)).length ? true : undefined)
    expect(seen).toBe(true)
  })
})
