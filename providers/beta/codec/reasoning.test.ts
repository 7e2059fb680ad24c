import { describe, expect, it } from 'vitest'
import { decodeMessagesReasoning } from './reasoning.ts'

describe('thinking + output_config.effort -> canonical reasoning', () => {
  it.each([
    [{ type: 'adaptive' }, undefined, { effort: 'auto', includeThoughts: true }],
    [{ type: 'adaptive', display: 'omitted' }, { effort: 'high' }, { effort: 'high', includeThoughts: false }],
    [{ type: 'adaptive' }, { effort: 'max' }, { effort: 'max', includeThoughts: true }],
    [{ type: 'enabled', budget_tokens: 4000 }, undefined, { budgetTokens: 4000, includeThoughts: true }],
    [{ type: 'enabled', budget_tokens: 4000 }, { effort: 'low' }, { budgetTokens: 4000, includeThoughts: true, effort: 'low' }],
    [{ type: 'disabled' }, { effort: 'high' }, { budgetTokens: 0 }],
    [undefined, { effort: 'medium' }, { effort: 'medium' }],
    [undefined, { effort: 'ludicrous' }, undefined],
    [{ type: 'between_tools' }, undefined, undefined],
    [undefined, undefined, undefined],
  ])('%j + %j -> %j', (thinking, outputConfig, expected) => {
    expect(decodeMessagesReasoning(thinking, outputConfig)).toEqual(expected)
  })
})
