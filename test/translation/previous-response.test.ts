import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import type { Storage } from 'unstorage'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'
import { clientKey as familyClientKey, familyModels, startFamilyProxy, type FamilyProxy } from '../helpers/family-proxy.ts'

/**
 * `previous_response_id` over HTTP toward a messages upstream, which keeps nothing: the proxy keeps the
 * responses it produced in the shared storage and expands the next request, on whichever instance it lands.
 */
const base = `proxy-response-chain-${process.pid}-${Date.now()}`
let upstream: MockUpstream
const seen: Array<{ messages: Array<{ role: string; content: unknown }> }> = []
let storages: Storage[]
let a: TestProxy
let b: TestProxy

beforeAll(async () => {
  upstream = await startMockUpstream(async (request) => {
    if (request.method === 'POST') seen.push(await request.clone().json())
    return messagesMock(request)
  })
  storages = await Promise.all([0, 1].map(() => createProxyStorage({ driver: 'redis', base })))
  const config = { 'api-keys': ['client'], 'beta-api-key': [{ 'api-key': 'up', 'base-url': upstream.url, models: [{ name: 'mock-claude', alias: 'via-beta' }] }] }
  a = await startTestProxy(config, [], storages[0]); b = await startTestProxy(config, [], storages[1])
})

afterAll(async () => {
  const cleanup = await createProxyStorage({ driver: 'redis', base })
  await Promise.all((await cleanup.getKeys()).map(key => cleanup.removeItem(key)))
  await cleanup.dispose()
  await a?.close()
  await b?.close()
  await upstream?.close()
})

const client = (proxy: TestProxy) => new OpenAI({ apiKey: 'client', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
/** The conversation the upstream received last, as role:text lines. */
const lastConversation = () => seen.at(-1)!.messages.map(m => `${m.role}:${typeof m.content === 'string' ? m.content : (m.content as Array<{ text?: string }>).map(block => block.text ?? '').join('')}`)

describe('previous_response_id toward a non-responses upstream', () => {
  it('the openai SDK chains two turns across two instances sharing Redis', async () => {
    const first = await client(a).responses.create({ model: 'via-beta', input: 'first question' })
    expect(first.output_text).toContain('first question')
    const second = await client(b).responses.create({ model: 'via-beta', input: 'second question', previous_response_id: first.id })
    expect(second.status).toBe('completed')
    expect(lastConversation()).toEqual([`user:first question`, `assistant:${first.output_text}`, 'user:second question'])
  })

  it('streams chain too: the kept answer is the one response.completed carried', async () => {
    const stream = await client(a).responses.create({ model: 'via-beta', input: 'streamed one', stream: true })
    let id = ''
    let text = ''
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta
      if (event.type === 'response.completed') id = event.response.id
    }
    expect(id).toMatch(/^resp_/)
    // A chain of three: the second answer is kept with the whole conversation before it.
    const second = await client(b).responses.create({ model: 'via-beta', input: 'streamed two', previous_response_id: id })
    await client(a).responses.create({ model: 'via-beta', input: 'streamed three', previous_response_id: second.id })
    expect(lastConversation()).toEqual(['user:streamed one', `assistant:${text}`, 'user:streamed two', `assistant:${second.output_text}`, 'user:streamed three'])
  })

  it('store: false keeps nothing: naming that answer later is the vendor\'s 404 for an unknown id', async () => {
    const first = await client(a).responses.create({ model: 'via-beta', input: 'private', store: false })
    const before = seen.length
    const response = await fetch(`${b.url}/v1/responses`, { method: 'POST', headers: { authorization: 'Bearer client', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'via-beta', input: 'next', previous_response_id: first.id }) })
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'previous_response_not_found', message: `Previous response with id '${first.id}' not found.` } })
    expect(seen.length).toBe(before)
  })
})

describe('an id the proxy never issued, toward each family', () => {
  let family: FamilyProxy
  beforeAll(async () => { family = await startFamilyProxy() })
  afterAll(() => family?.close())

  it.each(['compat', 'beta', 'alpha'] as const)('%s upstream: the openai SDK gets its NotFoundError (previous_response_not_found), nothing sent upstream', async (name) => {
    const sdk = new OpenAI({ apiKey: familyClientKey, baseURL: `${family.proxy.url}/v1`, maxRetries: 0 })
    const before = family.upstreams[name].requests.length
    for (const stream of [false, true]) {
      const error = await sdk.responses.create({ model: familyModels[name], input: 'next', previous_response_id: 'resp_never_issued', stream }).then(() => undefined, (caught: unknown) => caught)
      expect(error).toBeInstanceOf(OpenAI.NotFoundError)
      expect(error).toMatchObject({ status: 404, code: 'previous_response_not_found' })
    }
    expect(family.upstreams[name].requests.length).toBe(before)
  })

  it('a responses upstream is asked: its vendor may keep the answer', async () => {
    const before = family.upstreams.gamma.requests.length
    await fetch(`${family.proxy.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${familyClientKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: familyModels.gamma, input: 'next', previous_response_id: 'resp_upstream_own' }) })
    expect(family.upstreams.gamma.requests.length).toBe(before + 1)
    expect(JSON.parse(family.upstreams.gamma.requests.at(-1)!.body).previous_response_id).toBe('resp_upstream_own')
  })
})
