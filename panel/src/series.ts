/** `GET /usage/series`: the dashboard's charts, from the usage records. Types and pure helpers. */
export interface SeriesTotals {
  requests: number; ok: number; client: number; upstream: number; proxy: number
  p50_ms: number | null; p95_ms: number | null; cache_hit_ratio: number | null; cost_usd: number
}
export interface SeriesAnswer {
  enabled: boolean; span: string; from: number; to: number; bucket_ms: number
  buckets: Array<SeriesTotals & { time: number }>
  by_family: Record<string, SeriesTotals>; by_credential: Record<string, SeriesTotals>; by_key: Record<string, SeriesTotals>
  over_time: Record<'family' | 'credential', Record<string, Array<SeriesTotals & { time: number }>>>
}

export const splits = [['', 'All together'], ['family', 'Each family'], ['credential', 'Each credential']] as Array<[string, string]>

export const spans = [['15m', 'Last 15 minutes'], ['1h', 'Last hour'], ['6h', 'Last 6 hours'], ['24h', 'Last 24 hours'], ['7d', 'Last 7 days']] as Array<[string, string]>

/** The outcomes stacked in the requests chart, bottom first, with what the legend says. */
export const outcomes = [
  ['ok', 'answered'],
  ['client', 'client mistakes (4xx: bad request, unknown model, wrong key)'],
  ['upstream', 'upstream failures'],
  ['proxy', 'proxy failures'],
] as const
export type Outcome = typeof outcomes[number][0]

const pad = (n: number) => String(n).padStart(2, '0')
/** A bucket's label: `14:05` within a day, `11-27 14h` over days (local time). */
export function bucketLabel(time: number, bucketMs: number): string {
  const date = new Date(time)
  return bucketMs >= 3_600_000 ? `${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}h` : `${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** Totals over every bucket. */
export function sumBuckets(buckets: SeriesTotals[]): Pick<SeriesTotals, 'requests' | 'ok' | 'client' | 'upstream' | 'proxy'> {
  const sum = { requests: 0, ok: 0, client: 0, upstream: 0, proxy: 0 }
  for (const b of buckets) for (const key of Object.keys(sum) as Array<keyof typeof sum>) sum[key] += b[key]
  return sum
}

/** Axis labels short enough for the chart's margin: `500 ms`, `2 s`, `1.5 s`; counts as they are. */
export const axisLabel = (value: number, unit: string) => unit !== ' ms' ? value.toLocaleString('en-US') : value >= 1000 ? `${Number((value / 1000).toFixed(1))} s` : `${value} ms`

/** A "nice" top for an axis: 1, 2, 5 times a power of ten, at least `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1
  const power = 10 ** Math.floor(Math.log10(max))
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power
  return 10 * power
}
