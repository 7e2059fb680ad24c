import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { SseEvent } from 'model-proxy'
import { createMessagesStreamDecoder } from './stream-decode.ts'

const frame = (type: string, data: Record<string, unknown>, named = true): SseEvent => ({ ...(named && { event: type }), data: JSON.stringify({ type, ...data }) })

describe('the messages stream decoder gives the same events with and without delta templates', () => {
  const text = fc.string({ unit: 'grapheme' })
  const index = fc.constantFrom(0, 1, 2)
  const eventArb = fc.oneof(
    fc.tuple(index, text).map(([i, t]) => frame('content_block_delta', { index: i, delta: { type: 'text_delta', text: t } })),
    fc.tuple(index, text).map(([i, t]) => frame('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: t } })),
    fc.tuple(index, text).map(([i, t]) => frame('content_block_delta', { index: i, delta: { type: 'thinking_delta', thinking: t } })),
    index.map(i => frame('content_block_delta', { index: i, delta: { type: 'signature_delta', signature: 'sig' } })),
    fc.tuple(index, fc.constantFrom('text', 'tool_use', 'thinking')).map(([i, type]) => frame('content_block_start', { index: i, content_block: type === 'tool_use' ? { type, id: `t${i}`, name: 'f', input: {} } : { type, [type === 'text' ? 'text' : 'thinking']: '' } })),
    index.map(i => frame('content_block_stop', { index: i })),
    fc.constant(frame('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } })),
    fc.constant(frame('ping', {})),
    // A delta whose type is only in the SSE event name: never a template.
    text.map(t => ({ event: 'content_block_delta', data: JSON.stringify({ index: 0, delta: { type: 'text_delta', text: t } }) })),
    text.map(t => ({ event: 'content_block_stop', data: JSON.stringify({ index: 0, delta: { type: 'text_delta', text: t } }) })),
    text.map(t => frame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t }, extra: t.length })),
  )
  it('on generated streams', () => {
    fc.assert(fc.property(fc.array(eventArb, { maxLength: 40 }), (events) => {
      const run = (chunkTemplates: boolean) => {
        const decoder = createMessagesStreamDecoder({ chunkTemplates })
        const start = frame('message_start', { message: { id: 'msg_1', model: 'm', usage: { input_tokens: 5, output_tokens: 1 } } })
        return [...decoder.push(start), ...events.flatMap(event => decoder.push(event)), ...decoder.push(frame('message_stop', {})), ...decoder.end()]
      }
      expect(run(true)).toEqual(run(false))
    }), { numRuns: 500 })
  })
})
