import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, tolerantMock, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { messagesMock } from '../../playground/mock-upstream/messages.ts'
import { responsesMock } from '../../playground/mock-upstream/responses.ts'
import { generateMock } from '../../playground/mock-upstream/generate.ts'

/**
 * A same-format request whose model keeps its name goes upstream as the client's bytes, never parsed.
 * Malformed JSON inside it (in a value the routing never reads) is still the proxy's own 400 in the
 * client's format, with the message the plain path's JSON.parse gives, and no upstream sees it: small
 * bodies, large ones read part by part, a next turn whose earlier parts were seen before, and a key written
 * twice whose first value only is malformed.
 */
let upstreams: Record<string, MockUpstream>
let proxy: TestProxy
beforeAll(async () => {
  const [chat, messages, responses, generate] = await Promise.all([openaiMock, messagesMock, responsesMock, generateMock].map(mock => startMockUpstream(tolerantMock(mock))))
  upstreams = { chat: chat!, messages: messages!, responses: responses!, generate: generate! }
  proxy = await startTestProxy({
    'api-keys': ['sk-same'],
    'compat-provider': [{ name: 'c', 'base-url': `${chat!.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'same-gpt' }] }],
    'beta-api-key': [{ 'api-key': 'up', 'base-url': messages!.url, models: [{ name: 'same-claude' }] }],
    'gamma-api-key': [{ 'api-key': 'up', 'base-url': `${responses!.url}/v1`, models: [{ name: 'same-codex' }] }],
    'alpha-api-key': [{ 'api-key': 'up', 'base-url': generate!.url, models: [{ name: 'same-gemini' }] }],
  })
})
afterAll(async () => {
  await proxy.close()
  await Promise.all(Object.values(upstreams).map(upstream => upstream.close()))
})

const long = 'lorem ipsum '.repeat(4000)
const formats = {
  chat: { path: '/v1/chat/completions', head: '"model":"same-gpt","messages":[', item: (text: string) => JSON.stringify({ role: 'user', content: text }) },
  messages: { path: '/v1/messages', head: '"model":"same-claude","max_tokens":10,"messages":[', item: (text: string) => JSON.stringify({ role: 'user', content: text }) },
  responses: { path: '/v1/responses', head: '"model":"same-codex","input":[', item: (text: string) => JSON.stringify({ role: 'user', content: text }) },
  generate: { path: '/v1beta/models/same-gemini:generateContent', head: '"contents":[', item: (text: string) => JSON.stringify({ role: 'user', parts: [{ text }] }) },
}
/** Flaws JSON.parse refuses but a scan of the top level can step over. */
const flaws = ['{"role":"user","extra":[1,,2]}', '{"role":"user","content":"a",}', '{"role":"user","content":"\\x"}', '{"role":"user","content":"tab\there"}', '{"role":"user","n":01}', '{"role":"user","n":1e}', '{"role":"user","t":tru}']

describe.each(Object.entries(formats))('%s, same format', (format, { path, head, item }) => {
  const send = (items: string[]) => fetch(`${proxy.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer sk-same', 'x-api-key': 'sk-same', 'x-goog-api-key': 'sk-same', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: `{${head}${items.join(',')}]}` })

  it.each([['small', [] as string[]], ['large', [item(long)]]])('%s bodies: the plain path\'s 400, no upstream call', async (_, before) => {
    const valid = await send([...before, item('hello')])
    expect(valid.status).toBe(200)
    for (const flaw of flaws) {
      const calls = upstreams[format]!.requests.length
      const text = `{${head}${[...before, flaw].join(',')}]}`
      let message = ''
      try { JSON.parse(text) } catch (error) { message = (error as Error).message }
      expect(message).not.toBe('')
      const response = await send([...before, flaw])
      expect(response.status).toBe(400)
      expect(await response.text()).toContain(JSON.stringify(`request body is not valid JSON: ${message}`).slice(1, -1))
      expect(upstreams[format]!.requests.length).toBe(calls)
    }
  })

  it('a large body with a key written twice, its first value malformed: the 400, no upstream call', async () => {
    for (const flaw of ['[1,,2]', '"\\x"', '{"n":01}']) {
      const calls = upstreams[format]!.requests.length
      const text = `{"metadata":${flaw},${head}${item(long)},${item('hello')}],"metadata":{}}`
      const response = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer sk-same', 'x-api-key': 'sk-same', 'x-goog-api-key': 'sk-same', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: text })
      expect(response.status).toBe(400)
      expect(await response.text()).toContain('request body is not valid JSON')
      expect(upstreams[format]!.requests.length).toBe(calls)
    }
  })
})
