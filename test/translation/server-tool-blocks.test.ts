import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import { GoogleGenAI } from '@google/genai'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

/**
 * An Anthropic answer with blocks no other format has: server tools other than web search (web_fetch,
 * code_execution; an operator's payload rule may add them) and MCP connector calls, with their results.
 * Their input streams as input_json_delta like a tool_use's; other clients get the text and no call
 * the model never made to them (real SDKs, stream and not).
 */
const blocks = [
  { use: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_fetch', input: { url: 'https://a.example' } }, result: { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'web_fetch_result', url: 'https://a.example', content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'page' } } } } },
  { use: { type: 'server_tool_use', id: 'srvtoolu_2', name: 'code_execution', input: { code: 'print(2+2)' } }, result: { type: 'code_execution_tool_result', tool_use_id: 'srvtoolu_2', content: { type: 'code_execution_result', stdout: '4', stderr: '', return_code: 0, content: [] } } },
  { use: { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', server_name: 'tools', input: { text: 'hi' } }, result: { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'hi' }] } },
]
const answer = 'The page says 4.'

function claude(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    const usage = { input_tokens: 10, output_tokens: 30 }
    const content = [...blocks.flatMap(({ use, result }) => [use, result]), { type: 'text', text: answer }]
    if (!body.stream) return new Response(JSON.stringify({ id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', stop_reason: 'end_turn', stop_sequence: null, usage, content }), { headers: { 'content-type': 'application/json' } })
    const frames: any[] = [{ type: 'message_start', message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }]
    let index = 0
    for (const { use, result } of blocks) {
      frames.push({ type: 'content_block_start', index, content_block: { ...use, input: {} } })
      frames.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(use.input) } })
      frames.push({ type: 'content_block_stop', index: index++ })
      frames.push({ type: 'content_block_start', index, content_block: result }, { type: 'content_block_stop', index: index++ })
    }
    frames.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } })
    frames.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: answer } }, { type: 'content_block_stop', index })
    frames.push({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 30 } }, { type: 'message_stop' })
    return new Response(frames.map(frame => `event: ${frame.type}\ndata: ${JSON.stringify(frame)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } })
  })
}

let upstream: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startMockUpstream(claude)
  proxy = await startTestProxy({ 'api-keys': ['sk-st'], 'beta-api-key': [{ 'api-key': 'up', 'base-url': upstream.url, models: [{ name: 'claude-x', alias: 'claude' }] }] })
}, 60_000)
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const openai = () => new OpenAI({ apiKey: 'sk-st', baseURL: `${proxy.url}/v1`, maxRetries: 0 })

describe('Anthropic blocks with no other form', () => {
  it.each([false, true])('chat client (stream %s): the text, no tool call, finish stop', async (stream) => {
    const messages = [{ role: 'user' as const, content: 'x' }]
    const completion = stream
      ? await openai().chat.completions.stream({ model: 'claude', messages }).finalChatCompletion()
      : await openai().chat.completions.create({ model: 'claude', messages })
    expect(completion.choices[0]!.message.content).toBe(answer)
    expect(completion.choices[0]!.message.tool_calls ?? []).toEqual([])
    expect(completion.choices[0]!.finish_reason).toBe('stop')
  })

  it.each([false, true])('responses client (stream %s): one message, no function_call item', async (stream) => {
    const ask = { model: 'claude', input: 'x' }
    const response = stream ? await openai().responses.stream(ask).finalResponse() : await openai().responses.create(ask)
    expect(response.output.map(item => item.type)).toEqual(['message'])
    expect(response.output_text).toBe(answer)
  })

  it.each([false, true])('generateContent client (stream %s): text parts, no functionCall', async (stream) => {
    const genai = new GoogleGenAI({ apiKey: 'sk-st', httpOptions: { baseUrl: proxy.url } })
    const chunks = []
    if (stream) for await (const chunk of await genai.models.generateContentStream({ model: 'claude', contents: 'x' })) chunks.push(chunk)
    else chunks.push(await genai.models.generateContent({ model: 'claude', contents: 'x' }))
    const parts = chunks.flatMap(chunk => chunk.candidates?.[0]?.content?.parts ?? [])
    expect(parts.filter(part => part.functionCall)).toEqual([])
    expect(parts.map(part => part.text ?? '').join('')).toBe(answer)
  })
})
