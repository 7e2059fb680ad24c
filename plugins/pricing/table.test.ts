import { describe, expect, it } from 'vitest'
import { calcPrice } from '@pydantic/genai-prices'
import { createPriceTable } from './table.ts'
import type { Usage } from 'model-proxy'

describe('price table', () => {
  const table = createPriceTable(() => ({ 'my-alias': { input: 1, output: 2 }, 'gpt-4o': { input: 0, output: 0 } }))
  // The package's own result is the reference: our cached rows must price exactly as it does.
  it.each([
    ['claude-sonnet-4-5', { inputTokens: 300_000, outputTokens: 1000, cachedInputTokens: 1000, cacheCreationInputTokens: 2000 }],
    ['claude-sonnet-4-5', { inputTokens: 1000, outputTokens: 1000 }],
    ['gemini-2.5-pro', { inputTokens: 1000, outputTokens: 1000, cachedInputTokens: 500 }],
    ['gpt-4o-mini', { inputTokens: 5000, outputTokens: 300 }],
  ] as Array<[string, Usage]>)('%s prices as the package does', (model, usage) => {
    const reference = calcPrice({ input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, cache_read_tokens: usage.cachedInputTokens ?? 0, cache_write_tokens: usage.cacheCreationInputTokens ?? 0 }, model)!
    expect(table.cost(usage, model)).toBeCloseTo(reference.total_price, 12)
  })
  it('config overrides win, by alias first, then by upstream model', () => {
    expect(table.cost({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, 'my-alias', 'claude-sonnet-4-5')).toBe(3)
    expect(table.cost({ inputTokens: 1_000_000, outputTokens: 0 }, 'anything', 'gpt-4o')).toBe(0)
  })
  it('an unknown model has no price', () => {
    expect(table.cost({ inputTokens: 10, outputTokens: 10 }, 'no-such-model-xyz')).toBeUndefined()
    expect(table.price('no-such-model-xyz')).toBeUndefined()
  })
})
