import { describe, expect, it } from 'vitest'
import type { StreamEvent } from './types.ts'
import { createToolCallSequencer } from './tool-call-order.ts'

const start = (index: number, id = `c${index}`): StreamEvent => ({ type: 'tool_call_start', index, id, name: 'f' })
const delta = (index: number, text: string): StreamEvent => ({ type: 'tool_call_delta', index, delta: text })
const text: StreamEvent = { type: 'text', index: 9, delta: 'x' }
const finish: StreamEvent = { type: 'finish', reason: 'tool_calls' }

describe('createToolCallSequencer: one call at a time, each with its arguments while its block is open', () => {
  it.each<[string, StreamEvent[], StreamEvent[]]>([
    ['one call passes as it comes', [start(0), delta(0, '{"a"'), delta(0, ':1}'), finish], [start(0), delta(0, '{"a"'), delta(0, ':1}'), finish]],
    ['interleaved calls: the second follows whole', [start(0), start(1), delta(0, '{"a":1}'), delta(1, '{"b":2}'), finish],
      [start(0), delta(0, '{"a":1}'), start(1), delta(1, '{"b":2}'), finish]],
    // A chat decoder learns a call had no arguments only at the finish: by then text closed its block.
    ['calls without arguments, then text: {} before the text, the late {} dropped', [start(0), start(1), text, delta(0, '{}'), delta(1, '{}'), finish],
      [start(0), delta(0, '{}'), start(1), delta(1, '{}'), text, finish]],
    ['a call without arguments at the finish gets {} once', [start(0), delta(0, '{}'), finish], [start(0), delta(0, '{}'), finish]],
    ['a call without arguments before the finish', [start(0), finish], [start(0), delta(0, '{}'), finish]],
  ])('%s', (_name, events, expected) => {
    const sequence = createToolCallSequencer()
    expect(events.flatMap(sequence)).toEqual(expected)
  })
})
