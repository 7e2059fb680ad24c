import { describe, expect, it } from 'vitest'
import { cooldownMs, isQuotaError, maxCooldownMs } from './cooldown.ts'

describe('cooldownMs', () => {
  it.each([
    [1, 1000], [2, 2000], [3, 4000], [4, 8000], [11, 1_024_000], [12, maxCooldownMs], [40, maxCooldownMs],
  ])('failure %i -> %i ms', (failures, ms) => {
    expect(cooldownMs(failures)).toBe(ms)
  })

  it('prefers the upstream Retry-After, still capped', () => {
    expect(cooldownMs(5, 7)).toBe(7000)
    expect(cooldownMs(1, 7200)).toBe(maxCooldownMs)
  })
})

describe('isQuotaError', () => {
  it.each([
    [429, '', true],
    [403, 'Quota exceeded for quota metric', true],
    [400, 'RESOURCE_EXHAUSTED', true],
    [503, 'overloaded', false],
    [403, 'permission denied', false],
    [500, 'quota', false],
  ])('%i %s -> %s', (status, message, expected) => {
    expect(isQuotaError(status, message)).toBe(expected)
  })
})
