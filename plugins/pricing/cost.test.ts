import { describe, expect, it } from 'vitest'
import { costOf } from './cost.ts'

describe('costOf', () => {
  const price = { input: 2, output: 10, cacheRead: 0.5, cacheWrite: 2.5, reasoning: 20 }
  it.each([
    ['plain input and output', { inputTokens: 1_000_000, outputTokens: 1_000_000 }, 12],
    ['cache reads are taken out of input', { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 400_000 }, 0.6 * 2 + 0.4 * 0.5],
    ['cache writes too', { inputTokens: 1_000_000, outputTokens: 0, cacheCreationInputTokens: 1_000_000 }, 2.5],
    ['reasoning out of output', { inputTokens: 0, outputTokens: 1_000_000, reasoningTokens: 250_000 }, 0.75 * 10 + 0.25 * 20],
    ['nothing used', { inputTokens: 0, outputTokens: 0 }, 0],
  ])('%s', (_name, usage, usd) => {
    expect(costOf(usage, price)).toBeCloseTo(usd, 9)
  })
  it('special kinds without a price fall back to input and output', () => {
    expect(costOf({ inputTokens: 100, outputTokens: 100, cachedInputTokens: 50, reasoningTokens: 50 }, { input: 1, output: 3 })).toBeCloseTo((100 + 300) / 1e6, 12)
  })
})
