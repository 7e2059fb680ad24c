import { describe, expect, it } from 'vitest'
import { ObservedCounters } from './observed.ts'

const minute = Date.UTC(2026, 10, 26, 12, 0)

describe('counters read from Redis', () => {
  it('the higher of two reads wins within a window (replies out of order, an emptied Redis); a new window starts over', () => {
    const observed = new ObservedCounters()
    observed.note('k', { window: minute, requests: 5, tokens: 500, spend: { d1: 900, total: 2000 } })
    observed.note('k', { window: minute, requests: 4, tokens: 400, spend: { d1: 800, total: 1900 } })
    expect(observed.all(minute)).toEqual([{ name: 'k', window: minute, requests: 5, tokens: 500, spend: { d1: 900, total: 2000 } }])
    observed.note('k', { window: minute + 60_000, requests: 1, tokens: 10, spend: { d1: 950, total: 1000 } })
    // An older window's reply after a newer one: only its spend counts, for the periods still tracked.
    observed.note('k', { window: minute, requests: 9, tokens: 900, spend: { d0: 5, d1: 990, total: 2000 } })
    expect(observed.all(minute + 60_000)).toEqual([{ name: 'k', window: minute + 60_000, requests: 1, tokens: 10, spend: { d1: 990, total: 2000 } }])
    // Read in a later minute: that minute's requests and tokens are not known.
    expect(observed.all(minute + 120_000)).toEqual([{ name: 'k', window: minute + 120_000, requests: 0, tokens: 0, spend: { d1: 990, total: 2000 } }])
  })
})
