import { describe, expect, it } from 'vitest'
import { entriesToTrim, entryOf, isRecordId, parseEntry } from './ring.ts'

describe('ring entries', () => {
  it('sort by time as strings and parse back', () => {
    const entries = [entryOf(20, 'b'), entryOf(3, 'a-1'), entryOf(1_700_000_000_000, 'c')].sort()
    expect(entries.map(parseEntry)).toEqual([{ time: 3, id: 'a-1' }, { time: 20, id: 'b' }, { time: 1_700_000_000_000, id: 'c' }])
    expect(parseEntry('junk')).toBeUndefined()
  })

  const entries = [1, 2, 3, 4, 5].map(time => entryOf(time, `r${time}`))
  it.each([
    [10, 0, []],
    [3, 0, ['r1', 'r2']],
    [10, 3, ['r1', 'r2']],
    [4, 3, ['r1', 'r2']],
    [1, 0, ['r1', 'r2', 'r3', 'r4']],
    [10, 99, ['r1', 'r2', 'r3', 'r4', 'r5']],
  ])('max %d, cutoff %d -> %j', (max, cutoff, expected) => {
    expect(entriesToTrim(entries, max, cutoff).map(entry => parseEntry(entry)!.id)).toEqual(expected)
  })
})

describe('isRecordId', () => {
  it.each([
    ['0b5d6c1e-8f1a-4c4e-9d7e-1f2a3b4c5d6e', true],
    ['client.req_7', true],
    ['..', false],
    ['.hidden', false],
    ['a..b', false],
    ['a/b', false],
    ['a:b', false],
    ['x'.repeat(129), false],
  ])('%s -> %s', (id, expected) => expect(isRecordId(id)).toBe(expected))
})
