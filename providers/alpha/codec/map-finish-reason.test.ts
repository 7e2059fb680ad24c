import { describe, expect, it } from 'vitest'
import { finishFromGenerate } from './map-finish-reason.ts'

// The FinishReason enum of @google/genai (3.3): every reason that means "the content was blocked" is a content
// filter; CONTINUATION (the per-request token limit cut an unfinished answer) is a length stop.
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
    ['ESCALATION', false, 'content_filter'],
    ['PUP_LIMITED_DISABLED', false, 'content_filter'],
    ['MODEL_ARMOR', false, 'content_filter'],
    ['CONTINUATION', false, 'length'],
    ['MALFORMED_FUNCTION_CALL', false, 'stop'],
    ['A_REASON_OF_NEXT_YEAR', false, 'stop'],
  ])('%s (tool call: %s)', (reason, hasToolCall, expected) => {
    expect(finishFromGenerate(reason, hasToolCall)).toBe(expected)
  })
})
