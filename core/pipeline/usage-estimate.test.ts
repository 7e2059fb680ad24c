import { describe, expect, it } from 'vitest'
import type { Usage } from '../canonical/types.ts'
import { settledUsage } from './usage-estimate.ts'

/** Usage as a misbehaving upstream reports it (the codecs copy its values as they came). */
const odd = (fields: Record<string, unknown>) => fields as unknown as Usage

describe('settledUsage', () => {
  it('keeps a whole answer\'s reported usage as it is', () => {
    const reported: Usage = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 2 }
    expect(settledUsage(99, reported, false, 40)).toBe(reported)
  })

  it('reads numeric strings as their numbers, and says the record is not the upstream\'s own', () => {
    expect(settledUsage(99, odd({ inputTokens: '900', outputTokens: '5', totalTokens: '905' }), false, 40)).toEqual({ inputTokens: 900, outputTokens: 5, totalTokens: 905, estimated: true })
  })

  it('estimates a prompt or output that is no count (negative, too large, not a number); drops other such fields', () => {
    for (const bad of [-1_000_000, 1e300, Number.NaN, 'lots', null, {}]) {
      const usage = settledUsage(99, odd({ inputTokens: bad, outputTokens: bad, cachedInputTokens: bad, reasoningTokens: 3 }), false, 40)
      expect(usage).toEqual({ inputTokens: 99, outputTokens: 10, reasoningTokens: 3, estimated: true })
    }
  })

  it('a cut answer: every count a number, the output at least what was delivered', () => {
    expect(settledUsage(99, odd({ inputTokens: '7', outputTokens: -3 }), true, 40)).toEqual({ inputTokens: 7, outputTokens: 10, estimated: true })
  })
})
