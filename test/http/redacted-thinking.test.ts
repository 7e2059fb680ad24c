import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

/**
 * A messages upstream answers a tool turn with signed thinking and a `redacted_thinking` block (its
 * encrypted reasoning). A chat client has no slot for either: the proxy keeps them and, when the client
 * replays the tool call, the upstream gets both back, in order, as its vendor requires.
 */
const signature = 'EqQBCkYIBRgCKkRedactedTurnSignature=='
const redactedData = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw=='
const content = [
  { type: 'thinking', thinking: 'Look it up first.', signature },
  { type: 'redacted_thinking', data: redactedData },
  { type: 'tool_use', id: 'toolu_redacted_1', name: 'get_weather', input: { city: 'Paris' } },
]
const usage = { input_tokens: 10, output_tokens: 5 }
const sse = (events: Array<[string, unknown]>) => events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('')

function claude(request: Request): Promise<Response> {
  return request.json().then((body: any) => {
    if (JSON.stringify(body.messages).includes('tool_result')) {
      return Response.json({ id: 'msg_2', type: 'message', role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Paris is sunny.' }], stop_reason: 'end_turn', stop_sequence: null, usage })
    }
    if (!body.stream) return Response.json({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content, stop_reason: 'tool_use', stop_sequence: null, usage })
    return new Response(sse([
      ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Look it up first.' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: redactedData } }],
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
      ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_redacted_1', name: 'get_weather', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 2 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } }],
      ['message_stop', { type: 'message_stop' }],
    ]), { headers: { 'content-type': 'text/event-stream' } })
  })
}

let upstream: MockUpstream
let proxy: TestProxy
beforeAll(async () => {
  upstream = await startMockUpstream(claude)
  proxy = await startTestProxy({ 'api-keys': ['sk-red'], 'beta-api-key': [{ 'api-key': 'up', 'base-url': upstream.url, models: [{ name: 'claude-x', alias: 'claude-t' }] }] })
})
afterAll(async () => {
  await proxy?.close()
  await upstream?.close()
})

const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
const ask: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Paris?' }

describe('a chat client replays a tool turn whose thinking was partly redacted', () => {
  it.each([[false, false], [true, false], [false, true], [true, true]])('stream %s, reasoning_content replayed %s: the messages upstream gets the thinking and the redacted_thinking block back, in order', async (stream, echo) => {
    const sdk = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-red', maxRetries: 0 })
    let calls: OpenAI.ChatCompletionMessageToolCall[] = []
    if (stream) {
      const parts: Array<{ id: string; name: string; arguments: string }> = []
      for await (const chunk of await sdk.chat.completions.create({ model: 'claude-t', reasoning_effort: 'medium', tools, messages: [ask], stream: true })) {
        for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
          parts[call.index] ??= { id: call.id!, name: call.function!.name!, arguments: '' }
          parts[call.index]!.arguments += call.function?.arguments ?? ''
        }
      }
      calls = parts.map(call => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }))
    } else {
      calls = (await sdk.chat.completions.create({ model: 'claude-t', reasoning_effort: 'medium', tools, messages: [ask] })).choices[0]!.message.tool_calls as OpenAI.ChatCompletionMessageToolCall[]
    }
    expect(calls.map(call => call.id)).toEqual(['toolu_redacted_1'])
    const second = await sdk.chat.completions.create({ model: 'claude-t', reasoning_effort: 'medium', tools, messages: [ask, { role: 'assistant', content: null, tool_calls: calls, ...(echo && { reasoning_content: 'Look it up first.' }) } as OpenAI.ChatCompletionMessageParam, { role: 'tool', tool_call_id: calls[0]!.id, content: 'sunny' }] })
    expect(second.choices[0]!.message.content).toBe('Paris is sunny.')
    const sent = JSON.parse(upstream.requests.at(-1)!.body)
    expect(sent.thinking.type).toBe('enabled')
    expect(sent.messages[1].content).toEqual([
      { type: 'thinking', thinking: 'Look it up first.', signature },
      { type: 'redacted_thinking', data: redactedData },
      { type: 'tool_use', id: 'toolu_redacted_1', name: 'get_weather', input: { city: 'Paris' } },
    ])
  })
})
