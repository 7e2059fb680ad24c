import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import type { StreamEvent } from 'model-proxy'
import { encodeResponse } from './response-encode.ts'
import { createStreamDecoder } from './stream-decode.ts'
import { createStreamEncoder } from './stream-encode.ts'
import { decodeAll, fixture, frames, parseSse } from './test-utils.ts'

const encodeAll = (events: StreamEvent[]) => {
  const encoder = createStreamEncoder({ model: 'client-model' })
  return events.map(event => encoder.push(event)).join('') + encoder.end()
}

const toolTurn: StreamEvent[] = [
  { type: 'start', id: 'resp_t', model: 'upstream' },
  { type: 'thinking', index: 0, delta: 'Need ' },
  { type: 'thinking', index: 0, delta: 'weather.' },
  { type: 'thinking', index: 0, delta: '', signature: 'SIG', origin: 'responses' },
  { type: 'text', index: 1, delta: 'Checking' },
  { type: 'text', index: 1, delta: '...' },
  { type: 'tool_call_start', index: 2, id: 'call_1', name: 'get_weather' },
  { type: 'tool_call_delta', index: 2, delta: '{"city":' },
  { type: 'tool_call_delta', index: 2, delta: '"Paris"}' },
  { type: 'finish', reason: 'tool_calls', usage: { inputTokens: 10, outputTokens: 5 } },
]

describe('stream encode', () => {
  it('emits the real event sequence with incrementing sequence numbers', () => {
    const out = frames(encodeAll(toolTurn))
    expect(out.map(frame => frame.event)).toEqual([
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.delta',
      'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ])
    out.forEach((frame, i) => {
      expect(frame.data.type).toBe(frame.event)
      expect(frame.data.sequence_number).toBe(i)
    })
    expect(out[0].data.response).toMatchObject({ id: 'resp_t', object: 'response', status: 'in_progress', model: 'client-model', output: [] })
    expect(out[8].data.item).toEqual({ id: 'rs_t_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Need weather.' }], encrypted_content: 'SIG' })
    expect(out[11].data).toMatchObject({ item_id: 'msg_t_1', output_index: 1, content_index: 0, delta: 'Checking' })
    expect(out[19].data).toMatchObject({ item_id: 'fc_t_2', output_index: 2, arguments: '{"city":"Paris"}' })
    const final = out.at(-1)!.data.response
    expect(final).toEqual(encodeResponse({
      id: 'resp_t', model: 'client-model', created: final.created_at, finishReason: 'tool_calls', usage: { inputTokens: 10, outputTokens: 5 },
      parts: [{ type: 'thinking', text: 'Need weather.', signature: 'SIG', origin: 'responses' }, { type: 'text', text: 'Checking...' }, { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    }))
  })

  it('a new text index inside an open message is a new content part', () => {
    const out = frames(encodeAll([{ type: 'text', index: 0, delta: 'a' }, { type: 'text', index: 1, delta: 'b' }, { type: 'finish', reason: 'stop' }]))
    expect(out.filter(frame => frame.event === 'response.content_part.added').map(frame => [frame.data.output_index, frame.data.content_index])).toEqual([[0, 0], [0, 1]])
    expect(out.at(-1)!.data.response.output[0].content.map((part: { text: string }) => part.text)).toEqual(['a', 'b'])
  })

  it('works without start when the first event is a tool call', () => {
    const out = frames(encodeAll([
      { type: 'tool_call_start', index: 0, id: 'call_9', name: 'f' },
      { type: 'tool_call_delta', index: 0, delta: '{}' },
      { type: 'finish', reason: 'tool_calls' },
    ]))
    expect(out.slice(0, 3).map(frame => frame.event)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added'])
    expect(out[0].data.response.id).toMatch(/^resp_/)
    expect(out.at(-1)!.data.response.output).toEqual([expect.objectContaining({ type: 'function_call', call_id: 'call_9', name: 'f', arguments: '{}' })])
  })

  it.each([
    ['length', 'response.incomplete', { reason: 'max_output_tokens' }],
    ['content_filter', 'response.incomplete', { reason: 'content_filter' }],
    ['stop', 'response.completed', null],
  ] as const)('finish %s -> %s', (reason, event, details) => {
    const out = frames(encodeAll([{ type: 'text', index: 0, delta: 'a' }, { type: 'finish', reason, usage: { inputTokens: 1, outputTokens: 2 } }]))
    expect(out.at(-1)).toMatchObject({ event, data: { response: { incomplete_details: details, usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } } } })
  })

  it('error -> error event then response.failed; nothing after; end() is empty', () => {
    const encoder = createStreamEncoder({ model: 'm' })
    encoder.push({ type: 'start', id: 'resp_e', model: 'm' })
    const out = frames(encoder.push({ type: 'error', status: 429, message: 'slow down' }))
    expect(out.map(frame => frame.event)).toEqual(['error', 'response.failed'])
    expect(out[0].data).toEqual({ type: 'error', sequence_number: 2, code: 'rate_limit_error', message: 'slow down', param: null })
    expect(out[1].data.response).toMatchObject({ id: 'resp_e', status: 'failed', error: { code: 'rate_limit_error', message: 'slow down' } })
    expect(encoder.push({ type: 'text', index: 0, delta: 'x' })).toBe('')
    expect(encoder.end()).toBe('')
  })

  it('uses the start usage when the finish has none', () => {
    const out = frames(encodeAll([{ type: 'start', id: 'r', model: 'm', usage: { inputTokens: 9, outputTokens: 0 } }, { type: 'finish', reason: 'stop' }]))
    expect(out.at(-1)!.data.response.usage).toMatchObject({ input_tokens: 9 })
  })

  it.each(['text.sse', 'function-call.sse', 'reasoning.sse', 'incomplete.sse'])('%s: wire -> canonical -> wire -> canonical is stable', name => {
    const canonical = decodeAll(createStreamDecoder(), parseSse(fixture(name)))
    const again = decodeAll(createStreamDecoder(), parseSse(encodeAll(canonical)))
    expect(again.slice(1)).toEqual(canonical.slice(1))
    expect(again[0]).toMatchObject({ type: 'start', id: (canonical[0] as { id: string }).id, model: 'client-model' })
  })

  it('the openai SDK accepts the stream and rebuilds the same response', async () => {
    const body = encodeAll(toolTurn)
    const client = new OpenAI({ apiKey: 'test', baseURL: 'http://proxy.test/v1', fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }) })
    const stream = client.responses.stream({ model: 'client-model', input: 'weather?' })
    const types: string[] = []
    for await (const event of stream) types.push(event.type)
    const final = await stream.finalResponse()
    expect(types.at(-1)).toBe('response.completed')
    expect(final.output.map(item => item.type)).toEqual(['reasoning', 'message', 'function_call'])
    expect(final.output_text).toBe('Checking...')
  })
})

describe('stream encode: parts', () => {
  it('parallel calls: the held one follows, and one without arguments reads {}', () => {
    const out = frames(encodeAll([
      { type: 'tool_call_start', index: 0, id: 'a', name: 'f' },
      { type: 'tool_call_start', index: 1, id: 'b', name: 'g' },
      { type: 'tool_call_delta', index: 0, delta: '{}' },
      { type: 'finish', reason: 'tool_calls' },
    ]))
    const output = out.at(-1)!.data.response.output as Array<{ arguments: string }>
    expect(output.map(item => item.arguments)).toEqual(['{}', '{}'])
  })

  it('a delta with no start opens the call under a made-up id', () => {
    const out = frames(encodeAll([{ type: 'tool_call_delta', index: 3, delta: '{"a":1}' }, { type: 'finish', reason: 'tool_calls' }]))
    expect(out.at(-1)!.data.response.output).toEqual([expect.objectContaining({ call_id: 'call_3', arguments: '{"a":1}' })])
  })
})
