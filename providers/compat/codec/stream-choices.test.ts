import { describe, expect, it } from 'vitest'
import type { StreamEvent } from 'model-proxy'
import { createChatStreamDecoder } from './stream-decode.ts'
import { createChatStreamEncoder } from './stream-encode.ts'

const chunk = (choices: unknown[]) => ({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices }) })

describe('chat streams with n > 1', () => {
  it.each<[string, unknown[][], StreamEvent[]]>([
    ['interleaved choices keep their own runs; indexes stay unique', [
      [{ index: 0, delta: { content: 'A' } }], [{ index: 1, delta: { content: 'B' } }], [{ index: 0, delta: { content: 'a' } }],
      [{ index: 0, delta: {}, finish_reason: 'stop' }, { index: 1, delta: {}, finish_reason: 'length' }],
    ], [
      { type: 'text', index: 0, delta: 'A' }, { type: 'text', index: 1, delta: 'B', choice: 1 }, { type: 'text', index: 0, delta: 'a' },
      { type: 'finish', reason: 'stop', choices: ['stop', 'length'] },
    ]],
    ['tool calls count per choice: index 0 in each is a different call', [
      [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'x', function: { name: 'f', arguments: '' } }] } }],
      [{ index: 1, delta: { tool_calls: [{ index: 0, id: 'y', function: { name: 'g', arguments: '{}' } }] } }],
      [{ index: 0, delta: {}, finish_reason: 'tool_calls' }, { index: 1, delta: {}, finish_reason: 'tool_calls' }],
    ], [
      { type: 'tool_call_start', index: 0, id: 'x', name: 'f' },
      { type: 'tool_call_start', index: 1, id: 'y', name: 'g', choice: 1 }, { type: 'tool_call_delta', index: 1, delta: '{}', choice: 1 },
      { type: 'tool_call_delta', index: 0, delta: '{}' },
      { type: 'finish', reason: 'tool_calls', choices: ['tool_calls', 'tool_calls'] },
    ]],
    ['one choice: no choice tags, no choices list', [[{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }]], [{ type: 'text', index: 0, delta: 'x' }, { type: 'finish', reason: 'stop' }]],
  ])('decode: %s', (_name, chunks, events) => {
    const decoder = createChatStreamDecoder()
    const out = [...chunks.flatMap(choices => decoder.push(chunk(choices))), ...decoder.end()]
    expect(out.filter(event => event.type !== 'start')).toEqual(events)
  })

  it('encode: each choice gets its role chunk, its own tool slots and its finish chunk', () => {
    const encoder = createChatStreamEncoder({ model: 'm' })
    const wire = [
      { type: 'text', index: 0, delta: 'A' }, { type: 'tool_call_start', index: 1, id: 'y', name: 'g', choice: 1 },
      { type: 'finish', reason: 'stop', choices: ['stop', 'tool_calls'] },
    ].map(event => encoder.push(event as StreamEvent)).join('')
    const choices = wire.split('\n\n').filter(Boolean).map(frame => JSON.parse(frame.slice(6)).choices[0])
    expect(choices).toEqual([
      expect.objectContaining({ index: 0, delta: { role: 'assistant', content: null } }),
      expect.objectContaining({ index: 0, delta: { content: 'A' } }),
      expect.objectContaining({ index: 1, delta: { role: 'assistant', content: null } }),
      expect.objectContaining({ index: 1, delta: { tool_calls: [{ index: 0, id: 'y', type: 'function', function: { name: 'g', arguments: '' } }] } }),
      expect.objectContaining({ index: 0, finish_reason: 'stop' }),
      expect.objectContaining({ index: 1, finish_reason: 'tool_calls' }),
    ])
  })
})
