import { describe, expect, it } from 'vitest'
import { durationMs, headroom, resetAt, windowsFromHeaders } from './rate-limits.ts'

const now = Date.parse('2026-01-01T00:00:00Z')

describe('rate-limit headers -> quota windows', () => {
  it.each([
    ['6m0s', 360_000], ['1.5s', 1500], ['20ms', 20], ['1h2m', 3_720_000], ['soon', undefined],
  ])('duration %s', (text, ms) => expect(durationMs(text)).toBe(ms))

  it.each([
    ['2026-01-01T00:01:00Z', now + 60_000], ['1767225660', 1767225660_000], ['30', now + 30_000], ['1m', now + 60_000],
  ])('reset %s', (text, at) => expect(resetAt(text, now)).toBe(at))

  it('reads the messages API, its sign-in plans, OpenAI and Codex sign-in headers', () => {
    expect(windowsFromHeaders({
      'anthropic-ratelimit-requests-limit': '100', 'anthropic-ratelimit-requests-remaining': '25', 'anthropic-ratelimit-requests-reset': '2026-01-01T00:01:00Z',
      'anthropic-ratelimit-unified-5h-utilization': '0.4', 'anthropic-ratelimit-unified-5h-reset': '1767240000', 'anthropic-ratelimit-unified-status': 'allowed',
      'x-ratelimit-limit-tokens': '1000', 'x-ratelimit-remaining-tokens': '900', 'x-ratelimit-reset-tokens': '6s',
      'x-codex-primary-used-percent': '75', 'x-codex-primary-window-minutes': '300', 'x-codex-primary-reset-after-seconds': '60',
      'content-type': 'application/json',
    }, now)).toEqual({
      requests: { used: 0.75, limit: 100, remaining: 25, resetAt: now + 60_000 },
      '5h': { used: 0.4, resetAt: 1767240000_000 },
      tokens: { used: expect.closeTo(0.1), limit: 1000, remaining: 900, resetAt: now + 6000 },
      'primary (300 min)': { used: 0.75, resetAt: now + 60_000 },
    })
  })

  it('nothing to report: undefined', () => expect(windowsFromHeaders({ 'content-type': 'application/json', 'x-request-id': 'r' }, now)).toBeUndefined())

  it('headroom is the tightest live window; a window past its reset is full again', () => {
    expect(headroom(undefined, now)).toEqual({ free: 1, resetAt: undefined })
    expect(headroom({ a: { used: 0.2, resetAt: now + 10 }, b: { used: 0.9, resetAt: now + 20 } }, now).free).toBeCloseTo(0.1)
    expect(headroom({ a: { used: 0.99, resetAt: now - 1 } }, now).free).toBe(1)
  })
})
