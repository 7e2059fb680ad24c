import { describe, expect, it } from 'vitest'
import { budgetToEffort, clampBudget, clampReasoning, effortBudget, openaiEffort } from './reasoning.ts'

describe('reasoning table', () => {
  // `max` shares xhigh's budget (the largest any catalog accepts), so a budget comes back as xhigh.
  it.each(Object.entries(effortBudget).filter(([effort]) => effort !== 'max'))('%s -> %i', (effort, budget) => {
    if (budget > 0) expect(budgetToEffort(budget)).toBe(effort)
  })

  // The chat and responses knob only ever gets a value those APIs accept: adaptive (`auto`) leaves it unset.
  it.each([
    [{ effort: 'auto' }, undefined], [{ effort: 'max' }, 'max'], [{ effort: 'none' }, 'none'], [{ budgetTokens: -1 }, undefined],
    [{ budgetTokens: 0 }, 'none'], [{ budgetTokens: 2000 }, 'medium'], [{ budgetTokens: 2000, effort: 'high' }, 'high'], [undefined, undefined], [{}, undefined],
  ] as const)('openaiEffort(%j) = %s', (reasoning, expected) => {
    expect(openaiEffort(reasoning)).toBe(expected)
  })

  it.each([
    [0, 'none'], [-1, 'auto'], [100, 'minimal'], [513, 'low'], [1025, 'medium'], [9000, 'high'], [30000, 'xhigh'],
  ] as const)('budget %i -> effort %s (nearest not below)', (budget, effort) => {
    expect(budgetToEffort(budget)).toBe(effort)
  })

  it.each([
    [50000, { min: 128, max: 32768, canDisable: false }, 32768],
    [10, { min: 128, max: 32768, canDisable: false }, 128],
    [0, { min: 128, max: 32768, canDisable: false }, 128],
    [0, { min: 1, max: 24576, canDisable: true }, 0],
    [-1, { min: 1, max: 24576, canDisable: true }, -1],
  ])('clampBudget(%i, %j) = %i', (budget, range, expected) => {
    expect(clampBudget(budget, range)).toBe(expected)
  })

  it('clampReasoning turns an effort into a budget fitted to the model', () => {
    const flash = { min: 1, max: 24576, canDisable: true }
    expect(clampReasoning({ effort: 'xhigh' }, flash)).toEqual({ effort: undefined, budgetTokens: 24576 })
    expect(clampReasoning({ effort: 'none' }, { min: 128, max: 32768, canDisable: false })).toEqual({ effort: undefined, budgetTokens: 128 })
    expect(clampReasoning({ effort: 'auto' }, flash)).toEqual({ effort: 'auto' })
    expect(clampReasoning({ effort: 'high' }, undefined)).toEqual({ effort: 'high' })
  })
})
