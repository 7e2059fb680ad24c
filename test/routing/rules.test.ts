import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { fileURLToPath } from 'node:url'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'

let upstream: MockUpstream
let proxy: TestProxy
const secret = 'mgmt-secret'
const models = ['main', 'long', 'small', 'vision', 'search', 'sub', 'think', 'vip', 'infra', 'repo']
const examplePlugin = fileURLToPath(new URL('../../playground/plugins/route-by-workdir.ts', import.meta.url))

beforeAll(async () => {
  upstream = await startMockUpstream(openaiMock)
  proxy = await startTestProxy({
    'api-keys': ['client', 'vip-key'],
    'remote-management': { 'secret-key': secret },
    'compat-provider': [{ name: 'pool', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'k' }], models: models.map(m => ({ name: `up-${m}`, alias: m })) }],
    'route-by-workdir': { '/srv/monorepo': 'repo' },
    routing: {
      rules: [
        { name: 'long context', 'tokens-over': 3000, model: 'long' },
        { name: 'background', background: true, model: 'small' },
        { name: 'images', images: true, model: 'vision' },
        { name: 'web search', 'web-search': true, model: 'search' },
        { name: 'sub-agent', 'sub-agent': true, model: 'sub' },
        { name: 'thinking', thinking: true, model: 'think' },
        { name: 'vip', 'client-keys': ['vip-key'], model: 'vip' },
        { name: 'infra team', headers: { 'x-team': '^infra$' }, model: 'infra' },
        { name: 'nobody serves it', headers: { 'x-team': '^ghost$' }, model: 'ghost' },
      ],
    },
  }, [examplePlugin])
})
afterAll(async () => {
  await proxy.close()
  await upstream.close()
})

const lastUpstreamModel = () => JSON.parse(upstream.requests.at(-1)!.body).model as string
const anthropic = (key = 'client', headers: Record<string, string> = {}) => new Anthropic({ baseURL: proxy.url, apiKey: key, maxRetries: 0, defaultHeaders: headers })
const tools = [{ name: 'Bash', description: 'run', input_schema: { type: 'object' as const, properties: {} } }]

describe('scenario rules (routing.rules)', () => {
  it.each([
    ['an ordinary agent turn', {}, 'up-main'],
    ['a long context', { messages: [{ role: 'user', content: 'word '.repeat(4000) }] }, 'up-long'],
    ['a background title call (no tools, small max_tokens)', { tools: undefined, max_tokens: 512 }, 'up-small'],
    ['an image', { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }, { type: 'text', text: 'what is it' }] }] }, 'up-vision'],
    ['thinking on', { thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 4096 }, 'up-think'],
  ] as const)('%s', async (_, change, expected) => {
    const { data, response } = await anthropic().messages.create({ model: 'main', max_tokens: 2048, tools, messages: [{ role: 'user', content: 'fix the bug' }], ...change } as Anthropic.MessageCreateParamsNonStreaming).withResponse()
    expect(lastUpstreamModel()).toBe(expected)
    expect(data.model).toBe('main')
    expect(response.headers.get('x-proxy-served-model')).toBe(expected === 'up-main' ? null : expected.slice(3))
  })

  it('web search tool, Codex sub-agent header, client key and header match (OpenAI SDK)', async () => {
    const openai = (key = 'client', headers: Record<string, string> = {}) => new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: key, maxRetries: 0, defaultHeaders: headers })
    const ask = (sdk: OpenAI, extra: Record<string, unknown> = {}) => sdk.chat.completions.create({ model: 'main', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }], ...extra } as OpenAI.ChatCompletionCreateParamsNonStreaming)
    await ask(openai(), { web_search_options: {} })
    expect(lastUpstreamModel()).toBe('up-search')
    await ask(openai('client', { 'x-openai-subagent': 'review' }))
    expect(lastUpstreamModel()).toBe('up-sub')
    await ask(openai('vip-key'))
    expect(lastUpstreamModel()).toBe('up-vip')
    await ask(openai('client', { 'x-team': 'infra' }))
    expect(lastUpstreamModel()).toBe('up-infra')
    // A rule naming a model nothing serves is skipped: the client's model serves.
    await ask(openai('client', { 'x-team': 'ghost' }))
    expect(lastUpstreamModel()).toBe('up-main')
  })

  it('a route-resolve hook plugin (playground/plugins/route-by-workdir.ts) routes by working directory', async () => {
    await anthropic().messages.create({ model: 'main', max_tokens: 2048, tools, system: 'You are a coding agent.\nWorking directory: /srv/monorepo/api', messages: [{ role: 'user', content: 'hi' }] })
    expect(lastUpstreamModel()).toBe('up-repo')
  })
})

describe('POST /v0/management/route-preview', () => {
  const preview = (body: unknown, query = '') => fetch(`${proxy.url}/v0/management/route-preview${query}`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })

  it('names the rule, the model and the candidates; nothing goes upstream', async () => {
    const before = upstream.requests.length
    const response = await preview({ request: { model: 'main', max_tokens: 100, messages: [{ role: 'user', content: 'title please' }] }, headers: { 'x-claude-code-session-id': 's-1' } })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({
      model: 'main', format: 'messages', rule: { index: 1, name: 'background', model: 'small' }, 'served-model': 'small',
      candidates: [{ 'upstream-model': 'up-small', provider: 'pool', family: 'compat', state: 'ready' }],
      session: { source: 'x-claude-code-session-id', 'session-affinity': 'auto', 'bound-credential': null },
    })
    expect(upstream.requests.length).toBe(before)
  })

  it('a bare client body works too (format guessed or given); bad bodies get 400', async () => {
    const body = await (await preview({ model: 'main', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f' } }] }, '?format=chat')).json()
    expect(body).toMatchObject({ format: 'chat', rule: null, 'served-model': 'main', session: null })
    expect((await preview([1, 2])).status).toBe(400)
    expect((await preview({ messages: [] })).status).toBe(400)
  })

  it('needs the management key', async () => {
    const response = await fetch(`${proxy.url}/v0/management/route-preview`, { method: 'POST', body: '{}' })
    expect(response.status).toBe(401)
  })
})
