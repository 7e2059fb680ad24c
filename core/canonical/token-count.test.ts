import { describe, expect, it } from 'vitest'
import { tokenCount } from './token-count.ts'

describe('tokenCount', () => {
  it.each([
    [12, 12], [0, 0], ['900', 900], [' 7 ', 7], [3.6, 4], ['', undefined], ['lots', undefined], [-1, undefined], ['-5', undefined],
    [1e300, undefined], [Number.NaN, undefined], [Number.POSITIVE_INFINITY, undefined], [null, undefined], [{}, undefined], [[3], undefined], [true, undefined],
  ])('%j -> %j', (value, count) => {
    expect(tokenCount(value)).toBe(count)
  })
})
