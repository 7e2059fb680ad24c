import { describe, expect, it } from 'vitest'
import { finishFromWire, finishToWire } from './map-finish-reason.ts'

describe('finishFromWire', () => {
  it.each([
    ['completed', undefined, false, 'stop'],
    ['completed', undefined, true, 'tool_calls'],
    ['incomplete', 'max_output_tokens', false, 'length'],
    ['incomplete', 'max_output_tokens', true, 'length'],
    ['incomplete', 'content_filter', false, 'content_filter'],
    ['incomplete', 'something_new', false, 'length'],
    ['incomplete', 'max_messages', false, 'length'],
    // Stopped at a safe boundary for the client's new input (WebSocket response.steer): nothing was cut.
    ['incomplete', 'steered', false, 'stop'],
    ['incomplete', 'steered', true, 'tool_calls'],
    [undefined, undefined, false, 'stop'],
    ['in_progress', undefined, true, 'tool_calls'],
  ] as const)('%s / %s / tool call %s -> %s', (status, reason, hasToolCall, expected) => {
    expect(finishFromWire(status, reason, hasToolCall)).toBe(expected)
  })
})

describe('finishToWire', () => {
  it.each([
    ['stop', 'completed', null],
    ['tool_calls', 'completed', null],
    ['length', 'incomplete', { reason: 'max_output_tokens' }],
    ['content_filter', 'incomplete', { reason: 'content_filter' }],
  ] as const)('%s -> %s', (reason, status, details) => {
    expect(finishToWire(reason)).toEqual({ status, incomplete_details: details })
  })

  it.each(['stop', 'length', 'content_filter'] as const)('%s survives wire and back', reason => {
    const wire = finishToWire(reason)
    expect(finishFromWire(wire.status, wire.incomplete_details?.reason, false)).toBe(reason)
  })
})
