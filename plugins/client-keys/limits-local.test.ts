import { describe, expect, it } from 'vitest'
import { LocalLimits } from './limits-local.ts'
import type { Hold } from './limit-types.ts'

const minute = Date.UTC(2026, 10, 26, 12, 0)
const isHold = (value: unknown): value is Hold => typeof value === 'object' && value !== null && 'id' in value

describe('per-instance limits', () => {
  it('rpm: admits exactly the limit in a window, then says when the window ends', () => {
    const limits = new LocalLimits()
    const answers = Array.from({ length: 5 }, () => limits.reserve('k', { rpm: 3, period: 'month' }, { tokens: 0, nano: 0 }, minute + 15_000))
    expect(answers.filter(isHold)).toHaveLength(3)
    expect(answers[3]).toEqual({ reason: 'rpm', retryAfterMs: 45_000 })
    expect(isHold(limits.reserve('k', { rpm: 3, period: 'month' }, { tokens: 0, nano: 0 }, minute + 60_000))).toBe(true)
  })

  it('tpm: reservations count until settled, then the real usage does', () => {
    const limits = new LocalLimits()
    const rules = { tpm: 100, period: 'month' as const }
    const first = limits.reserve('k', rules, { tokens: 60, nano: 0 }, minute)
    const second = limits.reserve('k', rules, { tokens: 60, nano: 0 }, minute)
    expect(isHold(first) && isHold(second)).toBe(true)
    expect(limits.reserve('k', rules, { tokens: 1, nano: 0 }, minute)).toMatchObject({ reason: 'tpm' })
    // Settled below the estimate: room again.
    limits.commit('k', minute, (first as Hold).periods, { tokens: 10, nano: 0 }, (first as Hold).id, minute)
    limits.release((second as Hold).id)
    expect(limits.usage('k', minute)).toMatchObject({ tokens: 10, heldTokens: 0 })
    expect(isHold(limits.reserve('k', rules, { tokens: 1, nano: 0 }, minute))).toBe(true)
  })

  it('budget: spend plus reservations; the period id names where the spend went', () => {
    const limits = new LocalLimits()
    const rules = { budgetNano: 1000, period: 'day' as const }
    const hold = limits.reserve('k', rules, { tokens: 0, nano: 400 }, minute) as Hold
    limits.commit('k', hold.window, hold.periods, { tokens: 0, nano: 1200 }, hold.id, minute)
    expect(limits.reserve('k', rules, { tokens: 0, nano: 0 }, minute)).toMatchObject({ reason: 'budget', retryAfterMs: 12 * 3_600_000 })
    expect(limits.usage('k', minute).spend).toMatchObject({ 'd2026-11-26': 1200, 'm2026-11': 1200, total: 1200 })
    // A total budget has no end to wait for.
    expect(limits.reserve('k', { budgetNano: 1000, period: 'total' }, { tokens: 0, nano: 0 }, minute)).toEqual({ reason: 'budget', retryAfterMs: undefined })
  })

  it('a hold that is never settled lapses', () => {
    const limits = new LocalLimits()
    limits.reserve('k', { tpm: 10, period: 'month' }, { tokens: 10, nano: 0 }, minute)
    expect(limits.usage('k', minute).heldTokens).toBe(10)
    expect(limits.usage('k', minute + 16 * 60_000).heldTokens).toBe(0)
  })

  it('spend is kept and read back (fs storage across a restart)', () => {
    const limits = new LocalLimits()
    const hold = limits.reserve('k', { period: 'month' }, { tokens: 0, nano: 0 }, Date.now()) as Hold
    limits.commit('k', hold.window, hold.periods, { tokens: 5, nano: 777 }, hold.id)
    const again = new LocalLimits()
    again.loadSpend(JSON.parse(JSON.stringify(limits.spendState())))
    expect(again.usage('k', Date.now()).spend).toEqual(limits.usage('k', Date.now()).spend)
  })
})
