import { describe, expect, it } from 'vitest'
import { usageFromMessages } from '../../providers/beta/codec/usage.ts'
import { usageFromChat } from '../../providers/compat/codec/usage.ts'
import { usageFromWire } from '../../providers/gamma/codec/usage.ts'
import { usageFromGenerate } from '../../providers/alpha/codec/usage.ts'

/** Every family's usage decoder, fed what a misbehaving upstream sends: counts in the canonical usage, never strings or negatives. */
describe('usage decoders read counts only', () => {
  it.each([
    ['messages', usageFromMessages({ input_tokens: '900', output_tokens: -3, cache_read_input_tokens: '700', cache_creation_input_tokens: 'x' }), { inputTokens: 1600, outputTokens: 0, cachedInputTokens: 700 }],
    ['chat', usageFromChat({ prompt_tokens: '900', completion_tokens: 1e300, total_tokens: '-1', prompt_tokens_details: { cached_tokens: '700' }, completion_tokens_details: null }), { inputTokens: 900, outputTokens: 0, totalTokens: undefined, cachedInputTokens: 700 }],
    ['responses', usageFromWire({ input_tokens: '900', output_tokens: 'many', total_tokens: 905, input_tokens_details: { cached_tokens: -2 } }), { inputTokens: 900, outputTokens: 0, totalTokens: 905 }],
    ['generateContent', usageFromGenerate({ promptTokenCount: '900', candidatesTokenCount: '5', thoughtsTokenCount: -4, totalTokenCount: 'all', cachedContentTokenCount: '700' }), { inputTokens: 900, outputTokens: 5, cachedInputTokens: 700 }],
  ])('%s', (_format, usage, expected) => {
    expect(usage).toEqual(expected)
  })
})
