import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

/** Per upstream key (and model), what the mock answers; anything unscripted is a normal reply. */
type Script = (key: string, model: string, request: Request) => Response | undefined
let script: Script = () => undefined
let upstream: MockUpstream
const proxies: TestProxy[] = []

beforeAll(async () => {
  upstream = await startMockUpstream(async (request) => {
    const key = (request.headers.get('authorization') ?? '').replace('Bearer ', '')
    const body = await request.clone().json() as { model: string }
    return script(key, body.model, request) ?? openaiMock(request)
  })
})
afterEach(async () => {
  script = () => undefined
  upstream.requests.length = 0
  await Promise.all(proxies.splice(0).map(proxy => proxy.close()))
})
afterAll(() => upstream.close())

const errorReply = (status: number, message = 'error', headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { message, type: 'error' } }), { status, headers: { 'content-type': 'application/json', ...headers } })

async function proxyWith(config: Record<string, unknown>, keys = ['a', 'b', 'c'], models: Array<{ name: string; alias: string }> = [{ name: 'up-model', alias: 'm' }]) {
  const proxy = await startTestProxy({
    'api-keys': ['client'],
    'compat-provider': [{ name: 'pool', 'base-url': `${upstream.url}/v1`, 'api-key-entries': keys.map(key => ({ 'api-key': key })), models }],
    ...config,
  })
  proxies.push(proxy)
  return proxy
}

const chat = (proxy: TestProxy, model = 'm', stream = false) => fetch(`${proxy.url}/v1/chat/completions`, {
  method: 'POST',
  headers: { authorization: 'Bearer client', 'content-type': 'application/json' },
  body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
})
const usedKeys = () => upstream.requests.map(request => String(request.headers.authorization).replace('Bearer ', ''))
const usedModels = () => upstream.requests.map(request => `${String(request.headers.authorization).replace('Bearer ', '')}:${JSON.parse(request.body).model}`)

describe('strategies and priority (rules 1, 2)', () => {
  it('round-robin cycles through the keys', async () => {
    const proxy = await proxyWith({})
    for (let i = 0; i < 6; i++) expect((await chat(proxy)).status).toBe(200)
    expect(usedKeys()).toEqual(['a', 'b', 'c', 'a', 'b', 'c'])
  })

  it('fill-first keeps the first key until it cools down', async () => {
    const proxy = await proxyWith({ routing: { strategy: 'fill-first' }, 'quota-exceeded': { 'switch-project': true, 'switch-preview-model': false } })
    for (let i = 0; i < 3; i++) await chat(proxy)
    script = key => key === 'a' ? errorReply(429, 'quota', { 'retry-after': '60' }) : undefined
    for (let i = 0; i < 2; i++) await chat(proxy)
    expect(usedKeys()).toEqual(['a', 'a', 'a', 'a', 'b', 'b'])
  })
})

describe('retries (rule 9) and quota (rule 10)', () => {
  it('retries 500, 502, 503, 504, 403 and 408 on the next key', async () => {
    const proxy = await proxyWith({ 'request-retry': 6 }, ['a', 'b', 'c', 'd', 'e', 'f', 'g'])
    const statuses = [500, 502, 503, 504, 403, 408]
    script = key => key === 'g' ? undefined : errorReply(statuses['abcdef'.indexOf(key)]!)
    const response = await chat(proxy)
    expect(response.status).toBe(200)
    expect(usedKeys()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g'])
  })

  it('request-retry bounds the retries', async () => {
    const proxy = await proxyWith({ 'request-retry': 1 })
    script = () => errorReply(503, 'down')
    const response = await chat(proxy)
    expect(response.status).toBe(503)
    expect(usedKeys()).toEqual(['a', 'b'])
  })

  it('a 400 goes to the client at once: no retry, no cooldown', async () => {
    const proxy = await proxyWith({})
    script = key => key === 'a' ? errorReply(400, 'bad field') : undefined
    const response = await chat(proxy)
    expect(response.status).toBe(400)
    expect((await response.json()).error.message).toContain('bad field')
    await chat(proxy)
    await chat(proxy)
    await chat(proxy)
    expect(usedKeys()).toEqual(['a', 'b', 'c', 'a'])
  })

  it('max-retry-credentials caps the different keys tried', async () => {
    const proxy = await proxyWith({ 'max-retry-credentials': 2, 'request-retry': 5 })
    script = () => errorReply(500)
    expect((await chat(proxy)).status).toBe(500)
    expect(new Set(usedKeys()).size).toBe(2)
  })

  it('quota order with both switches on: A model, A preview, B model, B preview', async () => {
    const proxy = await proxyWith({}, ['A', 'B'])
    script = () => errorReply(429, 'quota exceeded', { 'retry-after': '60' })
    const response = await chat(proxy)
    expect(response.status).toBe(429)
    expect(usedModels()).toEqual(['A:up-model', 'A:up-model-preview', 'B:up-model', 'B:up-model-preview'])
  })

  it('a preview success reports the model the client asked for', async () => {
    const proxy = await proxyWith({}, ['A'])
    script = (_key, model) => model === 'up-model' ? errorReply(429, 'quota') : undefined
    const response = await chat(proxy)
    expect(response.status).toBe(200)
    expect((await response.json()).model).toBe('m')
    expect(usedModels()).toEqual(['A:up-model', 'A:up-model-preview'])
  })

  it('both switches off: the quota error goes to the client at once', async () => {
    const proxy = await proxyWith({ 'quota-exceeded': { 'switch-project': false, 'switch-preview-model': false } }, ['A', 'B'])
    script = () => errorReply(429, 'quota')
    expect((await chat(proxy)).status).toBe(429)
    expect(usedModels()).toEqual(['A:up-model'])
  })

  it('every key cooling down -> 429 with Retry-After naming the model', async () => {
    const proxy = await proxyWith({ 'quota-exceeded': { 'switch-project': true, 'switch-preview-model': false }, 'max-retry-interval': 0 }, ['A', 'B'])
    script = () => errorReply(429, 'quota', { 'retry-after': '120' })
    await chat(proxy)
    upstream.requests.length = 0
    const response = await chat(proxy)
    expect(response.status).toBe(429)
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(100)
    expect((await response.json()).error.message).toMatch(/model m .*cooling down.*resets in \d+s/)
    expect(upstream.requests).toHaveLength(0)
  })

  it('waits for a key whose cooldown ends within max-retry-interval', async () => {
    const proxy = await proxyWith({ 'quota-exceeded': { 'switch-project': true, 'switch-preview-model': false }, 'max-retry-interval': 5 }, ['A'])
    // Times from the upstream's side, not the client's: a loaded machine's delays before and after the
    // proxy's wait change neither. The cooldown (2 s) leaves the next request ample time to arrive within it.
    const hits: number[] = []
    script = () => {
      hits.push(Date.now())
      return hits.length === 1 ? errorReply(429, 'quota', { 'retry-after': '2' }) : undefined
    }
    const marking = await chat(proxy) // marks A cooling for 2 s from its answer
    const started = Date.now()
    const response = await chat(proxy)
    expect({ status: response.status, first: marking.status }, await response.text()).toEqual({ status: 200, first: 429 })
    // It came while A cooled down, and A was asked again only once its cooldown had ended: it waited.
    expect(started).toBeLessThan(hits[0]! + 2000)
    expect(hits).toHaveLength(2)
    expect(hits[1]! - hits[0]!).toBeGreaterThanOrEqual(2000)
  })

  it('a cooled-down key comes back after its cooldown, and the model listing follows (rule 7)', async () => {
    const proxy = await proxyWith({ 'quota-exceeded': { 'switch-project': true, 'switch-preview-model': false }, 'max-retry-interval': 0 }, ['A'])
    const listed = async () => ((await (await fetch(`${proxy.url}/v1/models`, { headers: { authorization: 'Bearer client' } })).json()).data as Array<{ id: string }>).map(model => model.id)
    expect(await listed()).toEqual(['m'])
    script = () => errorReply(429, 'quota', { 'retry-after': '1' })
    expect((await chat(proxy)).status).toBe(429)
    expect(await listed()).toEqual([])
    script = () => undefined
    await new Promise(resolve => setTimeout(resolve, 1100))
    expect(await listed()).toEqual(['m'])
    expect((await chat(proxy)).status).toBe(200)
  })
})

describe('model pools (rule 5) and streams (rule 11)', () => {
  it('a pool alternates its upstream models and falls over to the next one', async () => {
    const proxy = await proxyWith({}, ['A'], [{ name: 'one', alias: 'pool' }, { name: 'two', alias: 'pool' }])
    await chat(proxy, 'pool')
    await chat(proxy, 'pool')
    expect(usedModels()).toEqual(['A:one', 'A:two'])
    upstream.requests.length = 0
    script = (_key, model) => model === 'one' ? errorReply(500) : undefined
    expect((await chat(proxy, 'pool')).status).toBe(200)
    expect((await chat(proxy, 'pool')).status).toBe(200)
    expect(usedModels()).toEqual(['A:one', 'A:two', 'A:one', 'A:two'])
  })

  it('a stream that dies before its first byte fails over like a 502 (request-retry); bootstrap-retries adds tries; none left, the client gets the error', async () => {
    const empty = () => new Response(new ReadableStream({ start: controller => controller.close() }), { headers: { 'content-type': 'text/event-stream' } })
    script = key => key === 'a' ? empty() : undefined
    const failover = await proxyWith({})
    const ok = await chat(failover, 'm', true)
    expect(ok.status).toBe(200)
    expect(await ok.text()).toContain('[DONE]')
    expect(usedKeys()).toEqual(['a', 'b'])

    upstream.requests.length = 0
    const extra = await proxyWith({ 'request-retry': 0, streaming: { 'bootstrap-retries': 1 } })
    const retried = await chat(extra, 'm', true)
    expect(retried.status).toBe(200)
    expect(usedKeys()).toEqual(['a', 'b'])

    upstream.requests.length = 0
    const off = await proxyWith({ 'request-retry': 0, streaming: { 'bootstrap-retries': 0 } })
    const failed = await chat(off, 'm', true)
    expect(failed.status).toBe(502)
    expect((await failed.json()).error.message).toMatch(/before its first byte/)
    expect(usedKeys()).toEqual(['a'])
  })
})
