import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

/**
 * A messages client's `web_search` server tool toward a chat upstream: the chat format's equivalent,
 * `web_search_options`, is sent to the vendor's search models; toward any other chat model the tool is
 * left out and named in `x-proxy-dropped`, never silently.
 */
let upstream: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startMockUpstream(openaiMock)
  proxy = await startTestProxy({
    'api-keys': ['sk-ws'],
    'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt', alias: 'plain' }, { name: 'gpt-4o-search-preview', alias: 'searching' }] }],
  })
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const sdk = () => new Anthropic({ baseURL: proxy.url, apiKey: 'sk-ws', maxRetries: 0 })
const webSearch = { type: 'web_search_20250305', name: 'web_search', max_uses: 2, user_location: { type: 'approximate', city: 'Paris', country: 'FR' } } as const

describe('messages web_search toward a chat upstream', () => {
  it.each([false, true])('a search model gets web_search_options (stream %s); what it cannot carry is named', async (stream) => {
    const { response } = await sdk().messages.create({ model: 'searching', max_tokens: 50, stream, tools: [webSearch], messages: [{ role: 'user', content: 'news?' }] }).withResponse()
    expect(response.status).toBe(200)
    expect(response.headers.get('x-proxy-dropped')).toBe('tool:web_search.max_uses')
    const sent = JSON.parse(upstream.requests.at(-1)!.body)
    expect(sent.web_search_options).toEqual({ user_location: { type: 'approximate', approximate: { city: 'Paris', country: 'FR' } } })
    expect(sent.tools).toBeUndefined()
  })

  it.each([false, true])('any other chat model: the tool is left out and named (stream %s)', async (stream) => {
    const { response } = await sdk().messages.create({ model: 'plain', max_tokens: 50, stream, tools: [webSearch, { name: 'f', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: 'news?' }] }).withResponse()
    expect(response.status).toBe(200)
    expect(response.headers.get('x-proxy-dropped')).toBe('tool:web_search')
    const sent = JSON.parse(upstream.requests.at(-1)!.body)
    expect(sent.web_search_options).toBeUndefined()
    expect(sent.tools.map((tool: any) => tool.function.name)).toEqual(['f'])
  })
})
