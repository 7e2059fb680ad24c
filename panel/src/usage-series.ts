/** `GET /usage` groups -> chart series. Pure; the hours and days with no traffic are filled with zeros. */
export interface Totals { requests: number; success: number; failure: number; total_tokens: number; input_tokens: number; output_tokens: number; latency_ms_avg: number }
export interface Point { label: string; value: number; key: string }
export type Metric = 'requests' | 'total_tokens' | 'failure'

const pad = (n: number) => String(n).padStart(2, '0')
/** Keys as the server writes them (UTC): `2026-11-22T16:00`, `2026-11-22`. */
export const hourKey = (date: Date) => `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:00`
export const dayKey = (date: Date) => `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`

/** The last `count` hours up to `now`, oldest first; labels in local time. */
export function hourSeries(group: Record<string, Totals>, metric: Metric, now: number, count = 24): Point[] {
  const out: Point[] = []
  for (let i = count - 1; i >= 0; i--) {
    const date = new Date(now - i * 3_600_000)
    const key = hourKey(date)
    out.push({ key, label: `${pad(date.getHours())}h`, value: group[key]?.[metric] ?? 0 })
  }
  return out
}

/** The last `count` days up to `now`, oldest first. */
export function daySeries(group: Record<string, Totals>, metric: Metric, now: number, count = 14): Point[] {
  const out: Point[] = []
  for (let i = count - 1; i >= 0; i--) {
    const date = new Date(now - i * 86_400_000)
    const key = dayKey(date)
    out.push({ key, label: `${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`, value: group[key]?.[metric] ?? 0 })
  }
  return out
}

/** The biggest `limit` entries of a group (model, credential, client key), largest first. */
export function topSeries(group: Record<string, Totals>, metric: Metric, limit = 10): Point[] {
  return Object.entries(group).map(([key, totals]) => ({ key, label: key, value: totals[metric] ?? 0 }))
    .sort((a, b) => b.value - a.value || a.key.localeCompare(b.key)).slice(0, limit)
}
