import { describe, expect, it } from 'vitest'
import { answerText, buildChatCall, errorText, splitSse, streamText, usageOf } from '../../panel/src/chat-formats.ts'

const turns = [{ role: 'user' as const, text: 'hi' }, { role: 'assistant' as const, text: 'hello' }, { role: 'user' as const, text: 'again' }]

describe('the chat page speaks each client format', () => {
  it.each([
    ['chat', '/v1/chat/completions', 'authorization', 'Bearer k'],
    ['responses', '/v1/responses', 'authorization', 'Bearer k'],
    ['messages', '/v1/messages', 'x-api-key', 'k'],
    ['generate', '/v1beta/models/m%2Fx:streamGenerateContent?alt=sse', 'x-goog-api-key', 'k'],
  ] as const)('%s: path and key header', (format, path, header, value) => {
    const call = buildChatCall(format, 'k', { model: 'm/x', turns, stream: true })
    expect(call.path).toBe(path)
    expect(call.headers[header]).toBe(value)
  })

  it('bodies carry the conversation and the system prompt the way each format does', () => {
    const options = { model: 'm', turns, system: 'be brief', stream: false }
    expect(buildChatCall('chat', 'k', options).body.messages).toEqual([{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'user', content: 'again' }])
    expect(buildChatCall('responses', 'k', options).body).toMatchObject({ instructions: 'be brief', input: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'user', content: 'again' }] })
    expect(buildChatCall('messages', 'k', options).body).toMatchObject({ system: 'be brief', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'user', content: 'again' }] })
    const generate = buildChatCall('generate', 'k', options)
    expect(generate.path).toBe('/v1beta/models/m:generateContent')
    expect(generate.body).toEqual({ systemInstruction: { parts: [{ text: 'be brief' }] }, contents: [{ role: 'user', parts: [{ text: 'hi' }] }, { role: 'model', parts: [{ text: 'hello' }] }, { role: 'user', parts: [{ text: 'again' }] }] })
    expect(buildChatCall('chat', 'k', { ...options, stream: true }).body.stream_options).toEqual({ include_usage: true })
  })

  it.each([
    ['chat', { choices: [{ delta: { content: 'a' } }] }, 'a'],
    ['chat', { choices: [{ delta: {} }] }, ''],
    ['responses', { type: 'response.output_text.delta', delta: 'b' }, 'b'],
    ['responses', { type: 'response.reasoning_summary_text.delta', delta: 'x' }, ''],
    ['messages', { type: 'content_block_delta', delta: { type: 'text_delta', text: 'c' } }, 'c'],
    ['messages', { type: 'content_block_delta', delta: { type: 'thinking_delta', thinking: 'x' } }, ''],
    ['generate', { candidates: [{ content: { parts: [{ text: 'd' }, { text: 'x', thought: true }] } }] }, 'd'],
  ] as const)('stream text of a %s event', (format, data, text) => {
    expect(streamText(format, data)).toBe(text)
  })

  it.each([
    ['chat', { choices: [{ message: { content: 'A' } }], usage: { prompt_tokens: 3, completion_tokens: 4 } }, 'A'],
    ['responses', { output: [{ type: 'reasoning' }, { type: 'message', content: [{ type: 'output_text', text: 'B' }] }], usage: { input_tokens: 3, output_tokens: 4 } }, 'B'],
    ['messages', { content: [{ type: 'thinking', thinking: 'x' }, { type: 'text', text: 'C' }], usage: { input_tokens: 3, output_tokens: 4 } }, 'C'],
    ['generate', { candidates: [{ content: { parts: [{ text: 'D' }] } }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4 } }, 'D'],
  ] as const)('text and usage of a whole %s answer', (format, body, text) => {
    expect(answerText(format, body)).toBe(text)
    expect(usageOf(format, body)).toEqual({ input: 3, output: 4 })
  })

  it('usage from stream events: responses in response.completed, messages in message_start then message_delta', () => {
    expect(usageOf('responses', { type: 'response.completed', response: { usage: { input_tokens: 1, output_tokens: 2 } } })).toEqual({ input: 1, output: 2 })
    expect(usageOf('messages', { type: 'message_start', message: { usage: { input_tokens: 5, output_tokens: 1 } } })).toEqual({ input: 5, output: 1 })
    expect(usageOf('messages', { type: 'message_delta', usage: { output_tokens: 9 } })).toEqual({ output: 9 })
  })

  it('errors in every shape; SSE split into whole events, [DONE] dropped', () => {
    expect(errorText({ error: { message: 'bad key' } })).toBe('bad key')
    expect(errorText({ type: 'error', error: { type: 'overloaded_error', message: 'busy' } })).toBe('busy')
    expect(errorText({ choices: [] })).toBeUndefined()
    expect(splitSse('event: a\ndata: {"x":1}\n\ndata: [DONE]\n\ndata: {"y"')).toEqual({ events: [{ event: 'a', data: '{"x":1}' }], rest: 'data: {"y"' })
    expect(splitSse('data: 1\r\n\r\n').events).toEqual([{ event: undefined, data: '1' }])
  })
})
