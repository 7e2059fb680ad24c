import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { echo, startPartnerMock, startPartnerProxy, type LoggedProxy, type PartnerMock } from './helpers.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'

const key = 'partner-client'
let partner: PartnerMock
let compat: MockUpstream
let beta: MockUpstream
let alpha: MockUpstream
const started: LoggedProxy[] = []

/** Local providers: `local-gpt` (compat), `local-claude` (beta), `local-gemini` (alpha); the partner upstream behind. */
async function proxyWith(partnerSection: Record<string, unknown>): Promise<LoggedProxy> {
  const proxy = await startPartnerProxy({
    'api-keys': [key],
    'compat-provider': [{ name: 'mock', 'base-url': `${compat.url}/v1`, 'api-key-entries': [{ 'api-key': 'up-compat' }], models: [{ name: 'mock-gpt', alias: 'local-gpt' }] }],
    'beta-api-key': [{ 'api-key': 'up-beta', 'base-url': beta.url, models: [{ name: 'mock-claude', alias: 'local-claude' }] }],
    'alpha-api-key': [{ 'api-key': 'up-alpha', 'base-url': alpha.url, models: [{ name: 'mock-gemini', alias: 'local-gemini' }] }],
    partner: { 'upstream-url': partner.url, 'upstream-api-key': 'partner-upstream-key', ...partnerSection },
  })
  started.push(proxy)
  return proxy
}

let proxy: LoggedProxy
beforeAll(async () => {
  partner = await startPartnerMock()
  ;[compat, beta, alpha] = await Promise.all([openaiMock, messagesMock, generateMock].map(handler => startMockUpstream(handler)))
  proxy = await proxyWith({
    'model-mappings': [{ from: 'partner-fast', to: 'local-claude' }, { from: 'partner-gone', to: 'not-configured' }, { from: 'tab-*', to: 'local-gemini' }],
  })
})
afterAll(async () => {
  await Promise.all(started.map(p => p.close()))
  await Promise.all([partner, compat, beta, alpha].map(server => server.close()))
})
beforeEach(() => {
  for (const server of [compat, beta, alpha]) server.requests.length = 0
  partner.received.length = 0
  partner.handler = (_req, res, record) => echo(res, record)
})

const post = (target: LoggedProxy, path: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${key}` }) =>
  fetch(`${target.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'hi partner' }], ...extra })
const messages = (model: string) => ({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hi partner' }] })
const generate = { contents: [{ role: 'user', parts: [{ text: 'hi partner' }] }] }

describe('provider aliases served by local providers', () => {
  it('compat segment: chat completions, like /v1/chat/completions', async () => {
    const response = await post(proxy, '/api/provider/compat/v1/chat/completions', chat('local-gpt'))
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.object).toBe('chat.completion')
    expect(body.model).toBe('local-gpt')
    expect(body.choices[0].message.content).toContain('hi partner')
    expect(JSON.parse(compat.requests[0]!.body).model).toBe('mock-gpt')
    expect(partner.received).toHaveLength(0)
  })

  it('beta segment: messages, streamed', async () => {
    const response = await post(proxy, '/api/provider/beta/v1/messages', { ...messages('local-claude'), stream: true }, { 'x-api-key': key })
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const text = await response.text()
    expect(text).toContain('event: message_start')
    expect(text).toContain('event: message_stop')
    expect(beta.requests).toHaveLength(1)
  })

  it('alpha segment: generateContent and streamGenerateContent?alt=sse', async () => {
    const once = await post(proxy, '/api/provider/alpha/v1beta/models/local-gemini:generateContent', generate, { 'x-goog-api-key': key })
    expect(once.status).toBe(200)
    expect((await once.json()).candidates[0].content.parts[0].text).toContain('hi partner')
    const streamed = await fetch(`${proxy.url}/api/provider/alpha/v1beta/models/local-gemini:streamGenerateContent?alt=sse&key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(generate) })
    expect(streamed.headers.get('content-type')).toBe('text/event-stream')
    expect(await streamed.text()).toMatch(/^data: /)
    expect(alpha.requests.map(r => r.url.split('?')[0])).toEqual(['/v1beta/models/mock-gemini:generateContent', '/v1beta/models/mock-gemini:streamGenerateContent'])
    expect(partner.received).toHaveLength(0)
  })

  it('a segment serves only its own format; unknown segments are 404', async () => {
    const wrong = await post(proxy, '/api/provider/beta/v1/chat/completions', chat('local-gpt'))
    expect(wrong.status).toBe(404)
    expect((await wrong.json()).error.message).toMatch(/compat \(chat\), beta \(messages\), alpha \(generate\)/)
    const unknown = await post(proxy, '/api/provider/nope/v1/messages', messages('local-claude'))
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).type).toBe('error')
  })

  it('401 without a client key, in the endpoint format; bad JSON is the endpoint 400', async () => {
    const none = await post(proxy, '/api/provider/beta/v1/messages', messages('local-claude'), {})
    expect(none.status).toBe(401)
    expect((await none.json()).error.type).toBe('authentication_error')
    const bad = await fetch(`${proxy.url}/api/provider/compat/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: '{nope' })
    expect(bad.status).toBe(400)
    expect(partner.received).toHaveLength(0)
    expect(compat.requests).toHaveLength(0)
  })
})

describe('model mappings (rule 17)', () => {
  it('a mapped model with a local target is served there, under the name the client asked for', async () => {
    const response = await post(proxy, '/api/provider/compat/v1/chat/completions', chat('partner-fast'))
    expect(response.status).toBe(200)
    expect((await response.json()).model).toBe('partner-fast')
    expect(JSON.parse(beta.requests[0]!.body).model).toBe('mock-claude')
    expect(partner.received).toHaveLength(0)
    expect(proxy.lines.some(line => line.includes('"partner-fast" mapped to "local-claude"'))).toBe(true)
  })

  it('wildcard mappings work on the generateContent alias', async () => {
    const response = await post(proxy, '/api/provider/alpha/v1beta/models/tab-small:generateContent', generate)
    expect(response.status).toBe(200)
    expect((await response.json()).candidates[0].content.parts[0].text).toContain('hi partner')
    expect(alpha.requests[0]!.url).toBe('/v1beta/models/mock-gemini:generateContent')
  })

  it('a mapping whose target has no providers, and an unmapped model, go to the partner upstream with the partner key', async () => {
    const gone = await post(proxy, '/api/provider/compat/v1/chat/completions', chat('partner-gone'))
    const unknown = await post(proxy, '/api/provider/beta/v1/messages', messages('partner-only'), { 'x-api-key': key })
    const gemini = await post(proxy, '/api/provider/alpha/v1beta/models/partner-gem:generateContent?x=1', generate)
    for (const response of [gone, unknown, gemini]) expect(response.status).toBe(200)
    expect(partner.received.map(r => [r.method, r.url, r.headers.authorization])).toEqual([
      ['POST', '/api/provider/compat/v1/chat/completions', 'Bearer partner-upstream-key'],
      ['POST', '/api/provider/beta/v1/messages', 'Bearer partner-upstream-key'],
      ['POST', '/api/provider/alpha/v1beta/models/partner-gem:generateContent?x=1', 'Bearer partner-upstream-key'],
    ])
    expect(JSON.parse(partner.received[0]!.body)).toEqual(chat('partner-gone'))
    expect(partner.received[1]!.headers['x-api-key']).toBe('partner-upstream-key')
    expect(proxy.lines.some(line => line.includes('"partner-gone" is not served locally (its mapping target "not-configured" has no providers either): forwarded to the partner upstream'))).toBe(true)
    expect(proxy.lines.some(line => line.includes('"partner-only" is not served locally: forwarded to the partner upstream'))).toBe(true)
    for (const server of [compat, beta, alpha]) expect(server.requests).toHaveLength(0)
  })

  it('a streamed answer of the partner upstream is passed through as it arrives', async () => {
    let release!: () => void
    const gate = new Promise<void>(resolve => { release = resolve })
    partner.handler = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {"choices":[{"delta":{"content":"one"}}]}\n\n')
      await gate
      res.end('data: [DONE]\n\n')
    }
    const response = await post(proxy, '/api/provider/compat/v1/chat/completions', chat('partner-only', { stream: true }))
    const reader = response.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"one"')
    release()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: [DONE]\n\n')
  })

  it('a local model stays local without force-model-mappings, and is logged as local', async () => {
    const local = await proxyWith({ 'model-mappings': [{ from: 'local-gpt', to: 'local-claude' }] })
    const response = await post(local, '/api/provider/compat/v1/chat/completions', chat('local-gpt'))
    expect(response.status).toBe(200)
    expect(compat.requests).toHaveLength(1)
    expect(beta.requests).toHaveLength(0)
    expect(local.lines.some(line => line.includes('model "local-gpt" served locally'))).toBe(true)
  })

  it('force-model-mappings applies the mapping before local keys', async () => {
    const forced = await proxyWith({ 'force-model-mappings': true, 'model-mappings': [{ from: 'local-gpt', to: 'local-claude' }, { from: 'local-gemini', to: 'absent' }] })
    const mapped = await post(forced, '/api/provider/compat/v1/chat/completions', chat('local-gpt'))
    expect(mapped.status).toBe(200)
    expect((await mapped.json()).model).toBe('local-gpt')
    expect(compat.requests).toHaveLength(0)
    expect(JSON.parse(beta.requests[0]!.body).model).toBe('mock-claude')
    // A forced mapping whose target has no providers does not hide the local model.
    const kept = await post(forced, '/api/provider/alpha/v1beta/models/local-gemini:generateContent', generate)
    expect(kept.status).toBe(200)
    expect(alpha.requests).toHaveLength(1)
    expect(partner.received).toHaveLength(0)
  })

  it('without a partner upstream an unknown model is a 404 in the endpoint format', async () => {
    const bare = await startPartnerProxy({ 'api-keys': [key] })
    started.push(bare)
    const response = await post(bare, '/api/provider/beta/v1/messages', messages('partner-only'))
    expect(response.status).toBe(404)
    const body = await response.json()
    expect(body.type).toBe('error')
    expect(body.error.message).toMatch(/partner.upstream-url is not set/)
  })
})
