import { describe, expect, it } from 'vitest'
import { declaredMaxOutput, estimateTokens } from './estimate.ts'

describe('request estimates', () => {
  it.each([
    ['chat max_tokens', { max_tokens: 100 }, 100],
    ['chat max_completion_tokens', { max_completion_tokens: 50 }, 50],
    ['responses max_output_tokens', { max_output_tokens: 70 }, 70],
    ['generateContent maxOutputTokens', { generationConfig: { maxOutputTokens: 30 } }, 30],
    ['none', {}, 0],
    ['nonsense', { max_tokens: 'lots' }, 0],
  ])('%s', (_name, body, max) => {
    expect(declaredMaxOutput(key => (body as Record<string, unknown>)[key])).toBe(max)
  })
  it('prompt size plus allowed output', () => {
    expect(estimateTokens(400, { max_tokens: 20 })).toBe(120)
  })
})
