import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { responsesMock } from '../../playground/mock-upstream/responses.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { defineProxyPlugin } from '../../core/plugin-host/plugin.ts'

/**
 * Issue 22: a same-format request nobody needs whole is never parsed: routing reads its top-level fields
 * from the bytes and the client's bytes go upstream. Whether the body was built is watched from a
 * plugin's `after-response` hook, as any plugin would see it.
 */
let beta: MockUpstream
let gamma: MockUpstream
let compat: MockUpstream
let proxy: TestProxy
const seen: Array<{ model: string; parsed: boolean }> = []

const probe = defineProxyPlugin({
  name: 'parse-probe',
  setup(kernel) {
    // It reads the body after a stream answer started: it says so, or the body is let go by then.
    kernel.hooks.hook('before-response', ({ request }) => { request.keepBody = true })
    kernel.hooks.hook('after-response', (ctx) => { seen.push({ model: ctx.request.model, parsed: !ctx.request.clientBody || ctx.request.clientBody.parsed }) })
  },
})

beforeAll(async () => {
  [beta, gamma, compat] = await Promise.all([messagesMock, responsesMock, openaiMock].map(handler => startMockUpstream(handler)))
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'beta-api-key': [{ 'api-key': 'up-beta', 'base-url': beta!.url, models: [{ name: 'claude-same', alias: '' }, { name: 'claude-upstream', alias: 'claude-alias' }] }],
    'gamma-api-key': [{ 'api-key': 'up-gamma', 'base-url': `${gamma!.url}/v1`, models: [{ name: 'codex-same', alias: '' }] }],
    'compat-provider': [{ name: 'mock', 'base-url': `${compat!.url}/v1`, 'api-key-entries': [{ 'api-key': 'up-compat' }], models: [{ name: 'gpt-other', alias: '' }] }],
    routing: { 'session-affinity': 'auto' },
  }, [probe])
})
afterAll(async () => {
  await proxy.close()
  await Promise.all([beta, gamma, compat].map(upstream => upstream.close()))
})

const post = (path: string, text: string) => fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'x-api-key': 'k', authorization: 'Bearer k', 'content-type': 'application/json' }, body: text })
// Spacing, key order and a field the proxy does not know: a re-serialization would change each.
const messages = (model: string, extra = '') => `{ "max_tokens" : 50 ,\n "messages": [{"role":"user","content":"caf\\u00e9 — hi"}], "metadata": {"user_id": "user_x_account__session_abc"},${extra} "model" : "${model}" }`

describe('the body is parsed only when something needs it whole', () => {
  it('messages -> beta, same model: never parsed, the bytes go upstream, the session is read from metadata alone', async () => {
    for (const stream of [false, true]) {
      const text = messages('claude-same', ` "stream": ${stream},`)
      const response = await post('/v1/messages', text)
      expect(response.status).toBe(200)
      await response.text()
      expect(beta.requests.at(-1)!.body).toBe(text)
      expect(seen.at(-1)).toEqual({ model: 'claude-same', parsed: false })
    }
  })

  it('responses -> gamma, same model, with its session signal (prompt_cache_key, as Codex sends): never parsed', async () => {
    const text = `{"input":[{"role":"user","content":"hi"}],  "model":"codex-same","prompt_cache_key":"s-1","x_unknown":[1,2.50]}`
    const response = await post('/v1/responses', text)
    expect(response.status).toBe(200)
    await response.text()
    expect(gamma.requests.at(-1)!.body).toBe(text)
    expect(seen.at(-1)).toEqual({ model: 'codex-same', parsed: false })
  })

  it('an alias is renamed: parsed, and the upstream sees its own model name', async () => {
    const response = await post('/v1/messages', messages('claude-alias'))
    expect(response.status).toBe(200)
    await response.text()
    expect(JSON.parse(beta.requests.at(-1)!.body).model).toBe('claude-upstream')
    expect(seen.at(-1)).toEqual({ model: 'claude-alias', parsed: true })
  })

  it('a model written twice is parsed and re-serialized: the upstream runs the model that was routed', async () => {
    const response = await post('/v1/messages', `{"model":"claude-alias","max_tokens":5,"messages":[{"role":"user","content":"x"}],"model":"claude-same"}`)
    expect(response.status).toBe(200)
    await response.text()
    expect(JSON.parse(beta.requests.at(-1)!.body).model).toBe('claude-same')
    expect(beta.requests.at(-1)!.body.match(/"model"/g)).toHaveLength(1)
  })

  it('any top-level key written twice is parsed and re-serialized: each key goes upstream once, the last value as read', async () => {
    const response = await post('/v1/messages', `{"model":"claude-same","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"}],"stream":false}`)
    expect(response.status).toBe(200)
    expect((await response.json()).type).toBe('message')
    const sent = beta.requests.at(-1)!.body
    expect(sent.match(/"stream"/g)).toHaveLength(1)
    expect(JSON.parse(sent).stream).toBe(false)
  })

  it('translated (messages -> compat): parsed, decoded and encoded', async () => {
    const response = await post('/v1/messages', messages('gpt-other'))
    expect(response.status).toBe(200)
    expect((await response.json()).type).toBe('message')
    expect(JSON.parse(compat.requests.at(-1)!.body).messages.at(-1)).toMatchObject({ role: 'user' })
    expect(seen.at(-1)).toEqual({ model: 'gpt-other', parsed: true })
  })

  it('translated with long strings: the client\'s spelling of each is copied upstream, the body means what the codecs made', async () => {
    // Escapes JSON.stringify would write otherwise (`\u00e9`, `\/`): seen upstream as the client wrote them
    // (strings of 16 KB or more are copied: core/json/body-scan.ts).
    const long = (seed: string) => `${seed} ${'caf\\u00e9 \\/ \\n\\t\\"code\\" '.repeat(700)}`
    const text = `{"model":"gpt-other","max_tokens":50,"system":[{"type":"text","text":"${long('system')}"}],"messages":[{"role":"user","content":"${long('ask')}"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"p":"x"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"${long('result')}"}]}],"tools":[{"name":"Read","description":"${long('tool')}","input_schema":{"type":"object"}}]}`
    const response = await post('/v1/messages', text)
    expect(response.status).toBe(200)
    await response.text()
    const sent = compat.requests.at(-1)!.body
    const body = JSON.parse(sent)
    const client = JSON.parse(text)
    expect(body.messages.find((m: { role: string }) => m.role === 'tool').content).toBe(client.messages[2].content[0].content)
    expect(body.messages.find((m: { role: string }) => m.role === 'user').content).toBe(client.messages[0].content)
    expect(body.tools[0].function.description).toBe(client.tools[0].description)
    // The system text, the user turn, the tool result and the tool's description went out as spelled.
    expect(sent.split('caf\\u00e9 \\/').length - 1).toBe(2800)
  })

  it('bad input is still the client 400 in its format: malformed JSON, no model, a non-boolean stream', async () => {
    for (const [text, message] of [
      ['{"model": "claude-same", "messages": [', /not valid JSON/],
      ['{"max_tokens": 5, "messages": []}', /model/],
      ['{"model": "claude-same", "stream": "yes", "messages": []}', /stream must be a boolean/],
    ] as const) {
      const response = await post('/v1/messages', text)
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body.type).toBe('error')
      expect(body.error.message).toMatch(message)
    }
  })

  it('chat -> compat, same model: never parsed, the bytes go upstream; the spec\'s checks read the fields they name', async () => {
    for (const stream of [false, true]) {
      const text = `{"model":"gpt-other", "messages":[{"role":"system","content":"be brief"},{"role":"user","content":"caf\\u00e9 — hi"}],"temperature":0.5,${stream ? '"stream":true,"stream_options":{"include_usage":true},' : ''}"tools":[{"type":"function","function":{"name":"Read","parameters":{"type":"object"}}}],"x_vendor":{"a":[1]}}`
      const response = await post('/v1/chat/completions', text)
      expect(response.status).toBe(200)
      await response.text()
      expect(compat.requests.at(-1)!.body).toBe(text)
      expect(seen.at(-1)).toEqual({ model: 'gpt-other', parsed: false })
    }
  })

  it('chat: the spec\'s limits still answer 400 in chat\'s format, read from the bytes', async () => {
    for (const [text, message] of [
      ['{"model":"gpt-other","messages":[{"role":"user","content":"x"},{"content":"no role"}]}', /messages\[1\]\.role/],
      ['{"model":"gpt-other","messages":[]}', /'messages' must be a non-empty array/],
      ['{"model":"gpt-other","messages":"hi"}', /'messages' must be a non-empty array/],
      ['{"model":"gpt-other","messages":[{"role":"user","content":"x"}],"temperature":3}', /temperature must be a number between 0 and 2/],
      ['{"model":"gpt-other","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{}}]}', /tools\[0\]\.function\.name/],
      ['{"model":"gpt-other","messages":[{"role":"user","content":"x"}],"stop":["a","b","c","d","e"]}', /at most 4/],
      ['{"model":"gpt-other","messages":[{"role":tru}]}', /not valid JSON/],
    ] as const) {
      const response = await post('/v1/chat/completions', text)
      expect(response.status, text).toBe(400)
      const body = await response.json()
      expect(body.error.message).toMatch(message)
    }
  })

  it('chat: a responses-shaped body (input, no messages) is still read as chat', async () => {
    const response = await post('/v1/chat/completions', '{"model":"gpt-other","input":"hi","instructions":"be brief"}')
    expect(response.status).toBe(200)
    expect((await response.json()).object).toBe('chat.completion')
    expect(JSON.parse(compat.requests.at(-1)!.body).messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user'])
  })
})
