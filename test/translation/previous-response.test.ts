import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import type { Storage } from 'unstorage'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { createProxyStorage } from '../../core/storage.ts'

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

  it('store: false keeps nothing, and an id the proxy does not keep is reported dropped', async () => {
    const first = await client(a).responses.create({ model: 'via-beta', input: 'private', store: false })
    const response = await fetch(`${b.url}/v1/responses`, { method: 'POST', headers: { authorization: 'Bearer client', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'via-beta', input: 'next', previous_response_id: first.id }) })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-proxy-dropped')).toContain('previous_response_id')
    expect(lastConversation()).toEqual(['user:next'])
  })
})
