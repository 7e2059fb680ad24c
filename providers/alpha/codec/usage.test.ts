import { describe, expect, it } from 'vitest'
import { usageFromGenerate, usageToGenerate } from './usage.ts'

// totalTokenCount = promptTokenCount + candidatesTokenCount + toolUsePromptTokenCount + thoughtsTokenCount
// (@google/genai's UsageMetadata): tool results fed back to the model are input, thoughts are output.
describe('generateContent usage', () => {
  it.each([
    ['thoughts are output', { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 3, totalTokenCount: 18 }, { inputTokens: 10, outputTokens: 8, totalTokens: 18, reasoningTokens: 3 }],
    ['tool-use prompt is input', { promptTokenCount: 10, candidatesTokenCount: 5, toolUsePromptTokenCount: 100, thoughtsTokenCount: 3, totalTokenCount: 118 }, { inputTokens: 110, outputTokens: 8, totalTokens: 118, reasoningTokens: 3 }],
    ['cached content is part of the prompt', { promptTokenCount: 1000, cachedContentTokenCount: 800, candidatesTokenCount: 5, totalTokenCount: 1005 }, { inputTokens: 1000, outputTokens: 5, totalTokens: 1005, cachedInputTokens: 800 }],
  ])('%s', (_name, raw, expected) => {
    expect(usageFromGenerate(raw)).toEqual(expected)
  })

  it('a client reads the same totals back', () => {
    const usage = usageFromGenerate({ promptTokenCount: 10, candidatesTokenCount: 5, toolUsePromptTokenCount: 100, thoughtsTokenCount: 3, totalTokenCount: 118 })!
    expect(usageToGenerate(usage)).toEqual({ promptTokenCount: 110, candidatesTokenCount: 5, thoughtsTokenCount: 3, totalTokenCount: 118 })
  })
})
