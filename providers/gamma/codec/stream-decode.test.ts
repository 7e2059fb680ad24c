import { describe, expect, it } from 'vitest'
import type { SseEvent, StreamEvent } from 'model-proxy'
import { createStreamDecoder } from './stream-decode.ts'
import { decodeAll, fixture, parseSse } from './test-utils.ts'

const decodeFixture = (name: string) => decodeAll(createStreamDecoder(), parseSse(fixture(name)))
const sse = (data: Record<string, unknown>): SseEvent => ({ event: data.type as string, data: JSON.stringify(data) })
/** Text per index, joined, so a test reads what a client would see. */
const texts = (events: StreamEvent[]) => {
  const out: Record<number, string> = {}
  for (const event of events) if ('delta' in event && 'index' in event) out[event.index] = (out[event.index] ?? '') + event.delta
  return out
}

describe('stream decode: recorded-shape fixtures', () => {
  it('text', () => {
    const events = decodeFixture('text.sse')
    expect(events[0]).toEqual({ type: 'start', id: 'resp_0a1b2c3d4e5f60718293a4b5c6d7e8f90123456789abcdef', model: 'gpt-5.1-2025-11-13' })
    expect(events.filter(event => event.type === 'text').map(event => (event as { delta: string }).delta)).toEqual(['Hello', '!', ' How can', ' I help', ' you today?'])
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop', usage: { inputTokens: 1203, outputTokens: 12, totalTokens: 1215, cachedInputTokens: 1152, reasoningTokens: 0 } })
    expect(events.filter(event => event.type === 'finish')).toHaveLength(1)
  })

  it('function call with argument deltas', () => {
    const events = decodeFixture('function-call.sse')
    expect(events.slice(0, 2)).toEqual([
      { type: 'start', id: 'resp_07f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778', model: 'gpt-5.1-codex' },
      { type: 'tool_call_start', index: 0, id: 'call_Xq3bT9vLmK2pR8sW1nYd4F0z', name: 'get_weather' },
    ])
    expect(events.filter(event => event.type === 'tool_call_delta')).toHaveLength(10)
    expect(texts(events)).toEqual({ 0: '{"city":"Paris","unit":"c"}' })
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'tool_calls', usage: { inputTokens: 88, outputTokens: 24 } })
  })

  it('reasoning summary parts, encrypted_content as signature, then text', () => {
    const events = decodeFixture('reasoning.sse')
    expect(texts(events)).toEqual({
      0: '**Checking the arithmetic**\n\nThe user asks for 17 times 23.\n\n**Answering**\n\n17 × 23 = 391.',
      1: '17 × 23 = **391**.',
    })
    const signatures = events.filter(event => event.type === 'thinking' && event.signature)
    // The token at output_item.done is the final one (the one at output_item.added is superseded), and it comes once.
    expect(signatures).toEqual([{ type: 'thinking', index: 0, delta: '', signature: 'gAAAAABpQ1xZ-final-opaque-token-bG9yZW1pcHN1bWRvbG9yc2l0YW1ldA==', origin: 'responses' }])
    const signatureAt = events.indexOf(signatures[0])
    const firstText = events.findIndex(event => event.type === 'text')
    expect(signatureAt).toBeLessThan(firstText)
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'stop', usage: { reasoningTokens: 256 } })
  })

  it('incomplete: length', () => {
    expect(decodeFixture('incomplete.sse').at(-1)).toMatchObject({ type: 'finish', reason: 'length' })
  })

  it('failed: one error event, nothing after', () => {
    const events = decodeFixture('failed.sse')
    expect(events.map(event => event.type)).toEqual(['start', 'error'])
    expect(events[1]).toEqual({ type: 'error', status: 429, message: 'Rate limit reached for gpt-5.1-codex. Please try again in 2.1s.', errorType: 'rate_limit_exceeded' })
  })
})

describe('stream decode: robustness', () => {
  it('a new index per content part of one message', () => {
    const events = decodeAll(createStreamDecoder(), [
      sse({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'a' }),
      sse({ type: 'response.output_text.delta', output_index: 0, content_index: 1, delta: 'b' }),
      sse({ type: 'response.output_item.added', output_index: 1, item: { type: 'function_call', call_id: 'c', name: 'f', arguments: '' } }),
      sse({ type: 'response.completed', response: { status: 'completed', output: [] } }),
    ])
    expect(events.map(event => [event.type, 'index' in event ? event.index : null])).toEqual([
      ['start', null], ['text', 0], ['text', 1], ['tool_call_start', 2], ['finish', null],
    ])
  })

  it('starts even without response.created, and fills in text the deltas never sent', () => {
    const events = decodeAll(createStreamDecoder(), [
      sse({ type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"a":1}' } }),
      sse({ type: 'response.output_text.done', output_index: 1, content_index: 0, text: 'whole' }),
      sse({ type: 'response.completed', response: { status: 'completed', output: [] } }),
    ])
    expect(events[0]).toMatchObject({ type: 'start', model: '' })
    expect(events.slice(1)).toEqual([
      { type: 'tool_call_start', index: 0, id: 'c1', name: 'f' },
      { type: 'tool_call_delta', index: 0, delta: '{"a":1}' },
      { type: 'text', index: 1, delta: 'whole' },
      { type: 'finish', reason: 'tool_calls' },
    ])
  })

  it('takes the output of response.completed when no item events came', () => {
    const events = decodeAll(createStreamDecoder(), [sse({ type: 'response.completed', response: { id: 'resp_z', model: 'm', status: 'completed', output: [
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'hm' }], encrypted_content: 'E' },
      { type: 'message', content: [{ type: 'output_text', text: 'hi' }] },
    ] } })])
    expect(events).toEqual([
      { type: 'start', id: 'resp_z', model: 'm' },
      { type: 'thinking', index: 0, delta: 'hm', origin: 'responses' },
      { type: 'thinking', index: 0, delta: '', signature: 'E', origin: 'responses' },
      { type: 'text', index: 1, delta: 'hi' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  it('ignores malformed lines, [DONE], unknown events and everything after the finish', () => {
    const decoder = createStreamDecoder()
    expect(decoder.push({ data: 'not json' })).toEqual([])
    expect(decoder.push({ data: '[DONE]' })).toEqual([])
    expect(decoder.push({ data: '"a string"' })).toEqual([])
    expect(decoder.push({ data: '{}' })).toEqual([])
    expect(decoder.push(sse({ type: 'response.created', response: { id: 'resp_1', model: 'm' } }))).toEqual([{ type: 'start', id: 'resp_1', model: 'm' }])
    expect(decoder.push(sse({ type: 'response.web_search_call.searching', output_index: 0 }))).toEqual([])
    expect(decoder.push(sse({ type: 'response.completed', response: { status: 'completed' } }))).toEqual([{ type: 'finish', reason: 'stop' }])
    expect(decoder.push(sse({ type: 'response.output_text.delta', delta: 'late' }))).toEqual([])
    expect(decoder.end()).toEqual([])
  })

  it('an error event (by event name or data type) ends the stream with an error', () => {
    const decoder = createStreamDecoder()
    decoder.push(sse({ type: 'response.created', response: { id: 'resp_1', model: 'm' } }))
    expect(decoder.push({ event: 'error', data: JSON.stringify({ code: 'context_length_exceeded', message: 'Too long', param: null }) })).toEqual([
      { type: 'error', status: 400, message: 'Too long', errorType: 'context_length_exceeded' },
    ])
    expect(decoder.end()).toEqual([])
  })

  it('end() without completion closes with one finish', () => {
    const decoder = createStreamDecoder()
    decoder.push(sse({ type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', call_id: 'c', name: 'f' } }))
    expect(decoder.end()).toEqual([{ type: 'finish', reason: 'tool_calls' }])
    expect(decoder.end()).toEqual([])
  })
})
