import { describe, expect, it } from 'vitest'
import type { UsageRecord } from './record.ts'
import { percentile, seriesOf } from './series.ts'

const t0 = 1_800_000_000_000
const record = (over: Partial<UsageRecord>): UsageRecord => ({
  id: Math.random().toString(36), time: t0, clientKey: 'sk-…1234', model: 'm', family: 'beta', credential: 'beta:0',
  inputTokens: 10, outputTokens: 5, cachedTokens: 0, reasoningTokens: 0, latencyMs: 100, status: 200, stream: false, ...over,
})

describe('percentile (nearest rank)', () => {
  it.each([
    [[], 50, null],
    [[7], 95, 7],
    [[1, 2, 3, 4], 50, 2],
    [[1, 2, 3, 4], 95, 4],
    [Array.from({ length: 100 }, (_, i) => i + 1), 95, 95],
    [Array.from({ length: 20 }, (_, i) => i + 1), 50, 10],
  ])('%j at p%i is %s', (sorted, p, expected) => {
    expect(percentile(sorted, p)).toBe(expected)
  })
})

describe('seriesOf', () => {
  it('buckets by time, counts client mistakes apart from upstream and proxy failures', () => {
    const records = [
      record({ time: t0, latencyMs: 100 }),
      record({ time: t0 + 10_000, latencyMs: 300, cachedTokens: 5, cost: 0.25 }),
      record({ time: t0 + 20_000, status: 404, credential: undefined, family: undefined }), // unknown model
      record({ time: t0 + 61_000, status: 429 }), // the upstream's quota
      record({ time: t0 + 62_000, status: 503, credential: undefined, family: undefined }), // nothing could be tried
      record({ time: t0 + 200_000 }), // outside the span
      record({ time: t0 - 1 }), // before it
    ]
    const series = seriesOf(records, t0, t0 + 120_000, 60_000)
    expect(series.buckets.map(b => [b.time - t0, b.requests, b.ok, b.client, b.upstream, b.proxy, b.p50_ms, b.p95_ms])).toEqual([
      [0, 3, 2, 1, 0, 0, 100, 300],
      [60_000, 2, 0, 0, 1, 1, null, null],
    ])
    expect(series.by_family.beta).toMatchObject({ requests: 3, ok: 2, upstream: 1, cache_hit_ratio: 0.167, cost_usd: 0.25 })
    expect(series.by_family.none).toMatchObject({ requests: 2, client: 1, proxy: 1 })
    expect(Object.keys(series.by_credential)).toEqual(['beta:0', 'none'])
    expect(series.by_key['sk-…1234']!.requests).toBe(5)
    // Each family over time: the same buckets, split.
    expect(series.over_time.family.beta!.map(b => [b.ok, b.upstream])).toEqual([[2, 0], [0, 1]])
    expect(series.over_time.family.none!.map(b => [b.client, b.proxy])).toEqual([[1, 0], [0, 1]])
    expect(Object.keys(series.over_time.credential)).toEqual(['beta:0', 'none'])
  })

  it('names a named key by its name and fills empty buckets with zeros', () => {
    const series = seriesOf([record({ keyName: 'team-a', time: t0 + 150_000 })], t0, t0 + 180_000, 60_000)
    expect(series.buckets.map(b => b.requests)).toEqual([0, 0, 1])
    expect(series.buckets[0]).toMatchObject({ p50_ms: null, cache_hit_ratio: null, cost_usd: 0 })
    expect(Object.keys(series.by_key)).toEqual(['team-a'])
  })
})
