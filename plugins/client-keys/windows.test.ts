import { describe, expect, it } from 'vitest'
import { periodOf, windowOf, toNano, fromNano } from './windows.ts'

describe('budget periods (UTC)', () => {
  const now = Date.UTC(2026, 10, 26, 15, 30) // Thursday 26 Nov 2026
  it.each([
    ['day', 'd2026-11-26', Date.UTC(2026, 10, 27)],
    ['week', 'w2026-11-23', Date.UTC(2026, 10, 30)],
    ['month', 'm2026-11', Date.UTC(2026, 11, 1)],
    ['total', 'total', undefined],
  ] as const)('%s', (period, id, end) => {
    expect(periodOf(period, now)).toEqual(end === undefined ? { id } : { id, end })
  })
  it('a Sunday belongs to the week that began on Monday', () => {
    expect(periodOf('week', Date.UTC(2026, 10, 29, 23)).id).toBe('w2026-11-23')
    expect(periodOf('week', Date.UTC(2026, 10, 30)).id).toBe('w2026-11-30')
  })
  it('December rolls into the next year', () => {
    expect(periodOf('month', Date.UTC(2026, 11, 31)).end).toBe(Date.UTC(2027, 0, 1))
  })
  it('minute windows and nano-dollars', () => {
    expect(windowOf(Date.UTC(2026, 0, 1, 0, 0, 59_999 / 1000))).toBe(Date.UTC(2026, 0, 1))
    expect(fromNano(toNano(0.000001234))).toBeCloseTo(0.000001234, 12)
  })
})
