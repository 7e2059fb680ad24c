import { describe, expect, it } from 'vitest'
import { MissStreaks } from './miss-streaks.ts'

describe('MissStreaks', () => {
  it('skips a group after `after` bodies without a hit, probing one in `probeEvery`', () => {
    const streaks = new MissStreaks(2, 4)
    const tried: boolean[] = []
    for (let body = 0; body < 14; body++) {
      const worth = streaks.worthTrying('k\u0000messages')
      tried.push(worth)
      if (worth) streaks.report('k\u0000messages', 0)
    }
    expect(tried).toEqual([true, true, false, false, false, true, false, false, false, true, false, false, false, true])
  })

  it('a hit resets the group; other groups are not affected', () => {
    const streaks = new MissStreaks(1, 100)
    streaks.report('a', 0)
    expect(streaks.worthTrying('a')).toBe(false)
    expect(streaks.worthTrying('b')).toBe(true)
    streaks.report('a', 3)
    expect(streaks.worthTrying('a')).toBe(true)
  })
})
