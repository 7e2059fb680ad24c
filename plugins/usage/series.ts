import { requestOutcome, type RequestOutcome } from '../management/api.ts'
import type { UsageRecord } from './record.ts'

/** One time bucket or one group: counts by outcome, latency percentiles of answered requests, cache and spend. */
export interface SeriesTotals {
  requests: number
  ok: number
  /** The client's own mistakes (bad JSON, unknown model, wrong key): not errors. */
  client: number
  upstream: number
  proxy: number
  /** Latency of answered requests, nearest rank; null with none. */
  p50_ms: number | null
  p95_ms: number | null
  /** Input tokens read from the upstream's prompt cache / input tokens; null with no input tokens. */
  cache_hit_ratio: number | null
  cost_usd: number
}

export interface Series {
  from: number
  to: number
  bucket_ms: number
  /** Oldest first; every bucket present, empty ones with zeros. */
  buckets: Array<SeriesTotals & { time: number }>
  by_family: Record<string, SeriesTotals>
  by_credential: Record<string, SeriesTotals>
  /** Per client key (a named key by its name). */
  by_key: Record<string, SeriesTotals>
  /** The buckets again, split per family and per credential: each group over time. */
  over_time: { family: Record<string, Array<SeriesTotals & { time: number }>>; credential: Record<string, Array<SeriesTotals & { time: number }>> }
}

interface Tally { counts: Record<RequestOutcome, number>; latencies: number[]; input: number; cached: number; cost: number }
const tally = (): Tally => ({ counts: { ok: 0, client: 0, upstream: 0, proxy: 0 }, latencies: [], input: 0, cached: 0, cost: 0 })

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

function count(t: Tally, record: UsageRecord): void {
  const outcome = requestOutcome(record.status, Boolean(record.credential), record.broken)
  t.counts[outcome]++
  if (outcome === 'ok') t.latencies.push(record.latencyMs)
  t.input += record.inputTokens
  t.cached += record.cachedTokens
  t.cost += record.cost ?? 0
}

function finish(t: Tally): SeriesTotals {
  const sorted = t.latencies.sort((a, b) => a - b)
  const { ok, client, upstream, proxy } = t.counts
  return {
    requests: ok + client + upstream + proxy, ok, client, upstream, proxy,
    p50_ms: percentile(sorted, 50), p95_ms: percentile(sorted, 95),
    cache_hit_ratio: t.input ? Math.round((t.cached / t.input) * 1000) / 1000 : null,
    // Rounded to a millionth of a dollar: sums of float costs carry noise below that.
    cost_usd: Math.round(t.cost * 1e6) / 1e6,
  }
}

/** Records in [from, to) in buckets of `bucketMs`, and grouped by family, credential and client key. Pure. */
export function seriesOf(records: Iterable<UsageRecord>, from: number, to: number, bucketMs: number): Series {
  const start = Math.floor(from / bucketMs) * bucketMs
  const buckets = Array.from({ length: Math.max(1, Math.ceil((to - start) / bucketMs)) }, tally)
  const groups = { by_family: new Map<string, Tally>(), by_credential: new Map<string, Tally>(), by_key: new Map<string, Tally>() }
  const split = { family: new Map<string, Tally[]>(), credential: new Map<string, Tally[]>() }
  const bumpSplit = (group: Map<string, Tally[]>, key: string, index: number, record: UsageRecord) => {
    let row = group.get(key)
    if (!row) group.set(key, row = Array.from({ length: buckets.length }, tally))
    count(row[index]!, record)
  }
  const bump = (group: Map<string, Tally>, key: string, record: UsageRecord) => {
    let t = group.get(key)
    if (!t) group.set(key, t = tally())
    count(t, record)
  }
  for (const record of records) {
    if (record.time < from || record.time >= to) continue
    const index = Math.floor((record.time - start) / bucketMs)
    count(buckets[index]!, record)
    bumpSplit(split.family, record.family ?? 'none', index, record)
    bumpSplit(split.credential, record.credential ?? 'none', index, record)
    bump(groups.by_family, record.family ?? 'none', record)
    bump(groups.by_credential, record.credential ?? 'none', record)
    bump(groups.by_key, record.keyName ?? record.clientKey, record)
  }
  const out = (group: Map<string, Tally>) => Object.fromEntries([...group].sort(([a], [b]) => a.localeCompare(b)).map(([key, t]) => [key, finish(t)]))
  const timed = (row: Tally[]) => row.map((t, i) => ({ time: start + i * bucketMs, ...finish(t) }))
  const outTimed = (group: Map<string, Tally[]>) => Object.fromEntries([...group].sort(([a], [b]) => a.localeCompare(b)).map(([key, row]) => [key, timed(row)]))
  return {
    from, to, bucket_ms: bucketMs,
    buckets: timed(buckets),
    over_time: { family: outTimed(split.family), credential: outTimed(split.credential) },
    by_family: out(groups.by_family), by_credential: out(groups.by_credential), by_key: out(groups.by_key),
  }
}
