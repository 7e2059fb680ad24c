import { describe, expect, it } from 'vitest'
import { mergeRecords, stampPart } from './record-merge.ts'
import type { CredentialRecord } from './state.ts'

const record = (fields: Partial<CredentialRecord>): CredentialRecord => ({ cooldowns: {}, rev: 0, ...fields })
const cooldown = { until: 5000, failures: 1 }

describe('merging two copies of a credential record', () => {
  it.each<[string, CredentialRecord, CredentialRecord, Partial<CredentialRecord>, boolean]>([
    ['a block the store lacks (written over by an instance that had not pulled it) is kept and written back',
      record({ blocked: { reason: 'ops', at: 100 }, at: { blocked: 100 }, rev: 100 }),
      record({ windows: { requests: { used: 0.6 } }, at: { blocked: 0, windows: 200 }, rev: 200 }),
      { blocked: { reason: 'ops', at: 100 }, windows: { requests: { used: 0.6 } } }, true],
    ['a later unblock in the store removes the block here', record({ blocked: { reason: 'ops', at: 100 }, at: { blocked: 100 }, rev: 100 }),
      record({ at: { blocked: 150 }, rev: 150 }), { blocked: undefined }, false],
    ['cooldowns of different models from both sides', record({ cooldowns: { m1: cooldown }, at: { 'cooldown:m1': 100 }, rev: 100 }),
      record({ cooldowns: { m2: cooldown }, at: { 'cooldown:m2': 120 }, rev: 120 }), { cooldowns: { m1: cooldown, m2: cooldown } }, true],
    ['a cooldown ended later elsewhere ends here', record({ cooldowns: { m1: cooldown }, at: { 'cooldown:m1': 100 }, rev: 100 }),
      record({ at: { 'cooldown:m1': 130 }, rev: 130 }), { cooldowns: {} }, false],
    ['a tie keeps this copy (its windows, newer in memory than their last write)', record({ windows: { tokens: { used: 0.9 } }, at: { windows: 100 }, rev: 100 }),
      record({ windows: { tokens: { used: 0.2 } }, at: { windows: 100 }, rev: 100 }), { windows: { tokens: { used: 0.9 } } }, false],
    ['a stored record from before stamps changed as a whole at its rev: newer than this copy', record({ blocked: { reason: 'ops', at: 100 }, at: { blocked: 100 }, rev: 100 }),
      record({ cooldowns: { m1: cooldown }, rev: 300 }), { blocked: undefined, cooldowns: { m1: cooldown } }, false],
    ['... or older', record({ blocked: { reason: 'ops', at: 400 }, at: { blocked: 400 }, rev: 400 }),
      record({ cooldowns: { m1: cooldown }, rev: 300 }), { blocked: { reason: 'ops', at: 400 }, cooldowns: { m1: cooldown } }, true],
  ])('%s', (_, local, stored, expected, ahead) => {
    const result = mergeRecords(local, stored)
    expect(result.ahead).toBe(ahead)
    for (const [field, value] of Object.entries(expected)) expect(result.merged[field as keyof CredentialRecord]).toEqual(value)
    // Merging again with what was written back changes nothing and is not ahead.
    expect(mergeRecords(result.merged, result.merged)).toEqual({ merged: result.merged, ahead: false })
  })

  it('a part\'s stamp moves past its last one even when this clock is behind', () => {
    const copy = record({ at: { blocked: 1000 }, rev: 1000 })
    stampPart(copy, 'blocked', 900)
    expect(copy.at!.blocked).toBe(1001)
    const legacy = record({ blocked: { reason: 'old', at: 1 }, rev: 700 })
    stampPart(legacy, 'cooldown:m', 800)
    expect(legacy.at).toEqual({ blocked: 700, disabled: 700, windows: 700, 'cooldown:m': 800 })
  })
})
