import { describe, expect, it } from 'vitest'
import { usageFromMessages, usageToMessages } from './usage.ts'

// The API's `usage.output_tokens_details.thinking_tokens`: how many of `output_tokens` were reasoning.
describe('messages usage', () => {
  it.each([
    ['thinking tokens', { input_tokens: 10, output_tokens: 30, output_tokens_details: { thinking_tokens: 12 } }, undefined, { inputTokens: 10, outputTokens: 30, reasoningTokens: 12 }],
    ['no details', { input_tokens: 10, output_tokens: 30, output_tokens_details: null }, undefined, { inputTokens: 10, outputTokens: 30 }],
    ['zero thinking', { input_tokens: 10, output_tokens: 30, output_tokens_details: { thinking_tokens: 0 } }, undefined, { inputTokens: 10, outputTokens: 30 }],
    // message_delta: the running count keeps what message_start said when the delta has none.
    ['delta keeps the start', { output_tokens: 40 }, { inputTokens: 10, outputTokens: 1, reasoningTokens: 5 }, { inputTokens: 10, outputTokens: 40, reasoningTokens: 5 }],
    ['delta brings its own', { output_tokens: 40, output_tokens_details: { thinking_tokens: 25 } }, { inputTokens: 10, outputTokens: 1 }, { inputTokens: 10, outputTokens: 40, reasoningTokens: 25 }],
    ['cache reads and writes count as input', { input_tokens: 5, output_tokens: 1, cache_read_input_tokens: 100, cache_creation_input_tokens: 50, cache_creation: { ephemeral_5m_input_tokens: 20, ephemeral_1h_input_tokens: 30 } }, undefined, { inputTokens: 155, outputTokens: 1, cachedInputTokens: 100, cacheCreationInputTokens: 50 }],
  ])('%s', (_name, raw, base, expected) => {
    expect(usageFromMessages(raw, base)).toEqual(expected)
  })

  it.each([
    ['reasoning counted', { inputTokens: 10, outputTokens: 30, reasoningTokens: 12 }, { input_tokens: 10, output_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens_details: { thinking_tokens: 12 } }],
    ['none counted', { inputTokens: 10, outputTokens: 30 }, { input_tokens: 10, output_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }],
  ])('to the client: %s', (_name, usage, expected) => {
    expect(usageToMessages(usage)).toEqual(expected)
  })
})
