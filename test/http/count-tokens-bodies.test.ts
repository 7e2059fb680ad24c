import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

/**
 * The token-count endpoints answer themselves (nothing goes upstream), so they refuse what the vendor's
 * own endpoint refuses, with a 400 in its error shape naming the field, and count what it accepts.
 * messages `/v1/messages/count_tokens`: a Messages request without max_tokens (every message an object
 * with a role and content, blocks objects with a type, system a string or text blocks, tools a list),
 * and not the inputs the vendor's token counting refuses (server tools, the MCP connector, images and
 * documents by URL or file). generateContent `:countTokens`: `contents` (optional) or a whole
 * `generateContentRequest` (its model and contents required), Content and Part as the proto has them
 * (a part holds its data: `required oneof field 'data'`).
 */
let proxy: TestProxy
beforeAll(async () => {
  proxy = await startTestProxy({ 'api-keys': ['k'], 'beta-api-key': [{ 'api-key': 'up', 'base-url': 'http://127.0.0.1:9', models: [{ name: 'up-small', alias: 'small' }] }] })
})
afterAll(() => proxy?.close())

const post = (path: string, body: string) => fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'x-api-key': 'k', 'x-goog-api-key': 'k', 'content-type': 'application/json' }, body })
const user = { role: 'user', content: 'hello there' }
const messages = (fields: Record<string, unknown>) => JSON.stringify({ model: 'small', messages: [user], ...fields })

const refusedMessages: Array<[string, string, string]> = [
  ['a list', '[]', 'request body must be a JSON object'],
  ['no messages', '{"model":"small"}', 'messages'],
  ['a message that is a string', messages({ messages: ['hi'] }), 'messages.0'],
  ['a message without content', messages({ messages: [{ role: 'user' }] }), 'messages.0.content: Field required'],
  ['content that is a number', messages({ messages: [{ role: 'user', content: 5 }] }), 'messages.0.content'],
  ['a role that is none', messages({ messages: [{ role: 'bot', content: 'x' }] }), 'messages.0.role'],
  ['a block that is a string', messages({ messages: [{ role: 'user', content: ['x'] }] }), 'messages.0.content.0'],
  ['a block without a type', messages({ messages: [{ role: 'user', content: [{ text: 'x' }] }] }), 'messages.0.content.0.type'],
  ['a text block without text', messages({ messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] }), 'messages.0.content.0.text'],
  ['system that is a number', messages({ system: 5 }), 'system'],
  ['a system block that is a string', messages({ system: ['x'] }), 'system.0'],
  ['tools that are an object', messages({ tools: {} }), 'tools'],
  ['a tool without a name', messages({ tools: [{ input_schema: { type: 'object' } }] }), 'tools.0.name'],
  ['a tool without its input schema', messages({ tools: [{ name: 't' }] }), 'tools.0.input_schema'],
  ['tool_choice that is a string', messages({ tool_choice: 'auto' }), 'tool_choice'],
  ['thinking that is a string', messages({ thinking: 'on' }), 'thinking'],
  ['a server tool', messages({ tools: [{ type: 'web_search_20250305', name: 'web_search' }] }), 'tools.0'],
  ['the MCP connector', messages({ mcp_servers: [{ type: 'url', url: 'https://example.invalid/mcp', name: 'x' }] }), 'mcp_servers'],
  ['an image by URL', messages({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.invalid/a.png' } }] }] }), 'messages.0.content.0.source'],
  ['a document by file id', messages({ messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'file_1' } }] }] }), 'messages.0.content.0.source'],
]
const countedMessages: Array<[string, string]> = [
  ['a plain request', messages({})],
  ['system text blocks, a tool, tool_choice and thinking', messages({ system: [{ type: 'text', text: 'Be brief.' }], tools: [{ name: 't', input_schema: { type: 'object' } }], tool_choice: { type: 'auto' }, thinking: { type: 'enabled', budget_tokens: 1024 } })],
  ['a client tool of the vendor\'s', messages({ tools: [{ type: 'bash_20250124', name: 'bash' }] })],
  ['a tool turn and a system message', messages({ messages: [user, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 't', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }, { role: 'system', content: 'env' }] })],
  ['an image in base64', messages({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }] })],
]

const text = (parts: unknown) => JSON.stringify({ contents: [{ role: 'user', parts }] })
const refusedGenerate: Array<[string, string, string]> = [
  ['a list', '[]', 'request body must be a JSON object'],
  ['contents that are an object', '{"contents":{}}', 'contents must be an array'],
  ['a content that is a string', '{"contents":["x"]}', 'contents[0] must be an object'],
  ['a role that is none', JSON.stringify({ contents: [{ role: 'bot', parts: [{ text: 'x' }] }] }), 'contents[0].role'],
  ['parts that are an object', JSON.stringify({ contents: [{ role: 'user', parts: {} }] }), 'contents[0].parts must be an array'],
  ['a part that is a string', text(['x']), 'contents[0].parts[0] must be an object'],
  ['a part without data', text([{}]), 'contents[0].parts[0]: required oneof field \'data\''],
  ['text that is a number', text([{ text: 5 }]), 'contents[0].parts[0].text must be a string'],
  ['a generateContentRequest that is a string', JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }], generateContentRequest: 'x' }), 'generateContentRequest must be an object'],
  ['a generateContentRequest without contents', '{"generateContentRequest":{"model":"models/small"}}', 'generateContentRequest.contents'],
  ['a generateContentRequest without its model', JSON.stringify({ generateContentRequest: { contents: [{ parts: [{ text: 'x' }] }] } }), 'generateContentRequest.model'],
  ['a systemInstruction that is a number', JSON.stringify({ generateContentRequest: { model: 'models/small', contents: [{ parts: [{ text: 'x' }] }], systemInstruction: 5 } }), 'systemInstruction must be an object'],
  ['tools that are an object', JSON.stringify({ generateContentRequest: { model: 'models/small', contents: [{ parts: [{ text: 'x' }] }], tools: {} } }), 'tools must be an array'],
]
const countedGenerate: Array<[string, string]> = [
  ['contents', text([{ text: 'hello there' }])],
  ['no contents at all (the field is optional)', '{}'],
  ['a whole generateContentRequest', JSON.stringify({ generateContentRequest: { model: 'models/small', contents: [{ role: 'user', parts: [{ text: 'hello there' }] }], systemInstruction: { parts: [{ text: 'Be brief.' }] } } })],
  ['its snake_case spelling', JSON.stringify({ generate_content_request: { model: 'models/small', contents: [{ parts: [{ text: 'hello there' }] }] } })],
  ['a content without a role, an inline image, a thought', JSON.stringify({ contents: [{ parts: [{ text: 'x', thought: true }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] }] })],
]

describe('messages count_tokens', () => {
  it.each(refusedMessages)('refuses %s: a 400 in the messages error shape', async (_name, body, says) => {
    const response = await post('/v1/messages/count_tokens', body)
    expect(response.status).toBe(400)
    const json = await response.json()
    expect(json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
    expect(json.error.message).toContain(says)
  })

  it.each(countedMessages)('counts %s', async (_name, body) => {
    const response = await post('/v1/messages/count_tokens', body)
    expect(response.status, await response.clone().text()).toBe(200)
    expect((await response.json()).input_tokens).toBeGreaterThan(0)
  })
})

describe('generateContent countTokens', () => {
  it.each(refusedGenerate)('refuses %s: a 400 in the generateContent error shape', async (_name, body, says) => {
    const response = await post('/v1beta/models/small:countTokens', body)
    expect(response.status).toBe(400)
    const json = await response.json()
    expect(json).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } })
    expect(json.error.message).toContain(says)
  })

  it.each(countedGenerate)('counts %s', async (_name, body) => {
    const response = await post('/v1beta/models/small:countTokens', body)
    expect(response.status, await response.clone().text()).toBe(200)
    expect(typeof (await response.json()).totalTokens).toBe('number')
  })
})
