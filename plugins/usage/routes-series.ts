import { getQuery } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, ManagementError } from '../management/api.ts'
import type { UsageStore } from './store.ts'
import { seriesOf } from './series.ts'
import type { UsageRecord } from './record.ts'

const minuteMs = 60_000
/** The spans the dashboard offers, and the bucket each one is drawn in (about 30 to 60 bars). */
export const seriesSpans: Record<string, number> = { '15m': 30_000, '1h': minuteMs, '6h': 10 * minuteMs, '24h': 30 * minuteMs, '7d': 240 * minuteMs }
const spanMs: Record<string, number> = { '15m': 15 * minuteMs, '1h': 60 * minuteMs, '6h': 360 * minuteMs, '24h': 1440 * minuteMs, '7d': 7 * 1440 * minuteMs }

/**
 * `GET /usage/series?span=1h`: the dashboard's charts, from the same usage records `GET /usage` and its
 * export serve: requests by outcome, latency p50/p95 over time, and per family, credential and key.
 */
export function addSeriesRoute(kernel: ProxyKernel, store: UsageStore): void {
  const guard = kernel.services.managementGuard
  if (!guard) return
  addManagementRoute(kernel, guard, 'GET', '/usage/series', async (event) => {
    const span = String((getQuery(event) as { span?: string }).span ?? '1h')
    const bucket = seriesSpans[span]
    if (!bucket) throw new ManagementError(400, `span must be one of ${Object.keys(seriesSpans).join(', ')}`)
    await store.flush()
    const to = Date.now() + 1
    const from = to - spanMs[span]!
    const records: UsageRecord[] = []
    for await (const record of store.records(from)) records.push(record)
    return { enabled: kernel.config['usage-statistics-enabled'], span, ...seriesOf(records, from, to, bucket) }
  })
}
