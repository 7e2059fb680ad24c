import { describe, expect, it } from 'vitest'
import { finishFromGenerate } from './map-finish-reason.ts'

// The FinishReason enum of @google/genai: every reason that means "the content was blocked" is a content filter.
describe('generateContent finishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['IMAGE_SAFETY', false, 'content_filter'],
    ['IMAGE_PROHIBITED_CONTENT', false, 'content_filter'],
    ['IMAGE_RECITATION', false, 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'stop'],
    ['A_REASON_OF_NEXT_YEAR', false, 'stop'],
  ])('%s (tool call: %s)', (reason, hasToolCall, expected) => {
    expect(finishFromGenerate(reason, hasToolCall)).toBe(expected)
  })
})
