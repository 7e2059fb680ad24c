import type { UsageRecord } from './record.ts'

interface Totals { requests: number; success: number; failure: number; input_tokens: number; output_tokens: number; cached_tokens: number; cache_write_tokens: number; reasoning_tokens: number; total_tokens: number; estimated_requests: number; cost_usd: number; latency_ms_avg: number; cache_hit_ratio: number }

const empty = (): Totals & { latencySum: number } => ({ requests: 0, success: 0, failure: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, total_tokens: 0, estimated_requests: 0, cost_usd: 0, latency_ms_avg: 0, cache_hit_ratio: 0, latencySum: 0 })

function add(totals: ReturnType<typeof empty>, record: UsageRecord): void {
  totals.requests++
  if (record.status < 400) totals.success++
  else totals.failure++
  totals.input_tokens += record.inputTokens
  totals.output_tokens += record.outputTokens
  totals.cached_tokens += record.cachedTokens
  totals.cache_write_tokens += record.cacheWriteTokens ?? 0
  if (record.estimated) totals.estimated_requests++
  totals.reasoning_tokens += record.reasoningTokens
  totals.total_tokens += record.inputTokens + record.outputTokens
  totals.cost_usd += record.cost ?? 0
  totals.latencySum += record.latencyMs
}

function finish(totals: ReturnType<typeof empty>): Totals {
  const { latencySum, ...rest } = totals
  // Share of input tokens read from the upstream's prompt cache (what sticky sessions keep warm).
  const cache_hit_ratio = rest.input_tokens ? Math.round((rest.cached_tokens / rest.input_tokens) * 1000) / 1000 : 0
  // Rounded to a millionth of a dollar: sums of float costs carry noise below that.
  return { ...rest, cost_usd: Math.round(rest.cost_usd * 1e6) / 1e6, latency_ms_avg: rest.requests ? Math.round(latencySum / rest.requests) : 0, cache_hit_ratio }
}

/** Totals (with cost) overall, per model, credential, client key (a named key by its name) and session, and per hour and day (UTC). */
export function summarize(records: Iterable<UsageRecord>) {
  const all = empty()
  const groups: Record<'by_model' | 'by_credential' | 'by_client_key' | 'by_session' | 'by_hour' | 'by_day', Map<string, ReturnType<typeof empty>>> = {
    by_model: new Map(), by_credential: new Map(), by_client_key: new Map(), by_session: new Map(), by_hour: new Map(), by_day: new Map(),
  }
  const bump = (group: keyof typeof groups, key: string, record: UsageRecord) => {
    let totals = groups[group].get(key)
    if (!totals) groups[group].set(key, totals = empty())
    add(totals, record)
  }
  for (const record of records) {
    add(all, record)
    const iso = new Date(record.time).toISOString()
    bump('by_model', record.model, record)
    bump('by_credential', record.credential ?? 'none', record)
    bump('by_client_key', record.keyName ?? record.clientKey, record)
    if (record.session) bump('by_session', record.session, record)
    bump('by_hour', `${iso.slice(0, 13)}:00`, record)
    bump('by_day', iso.slice(0, 10), record)
  }
  const out = (group: keyof typeof groups) => Object.fromEntries([...groups[group]].sort(([a], [b]) => a.localeCompare(b)).map(([key, totals]) => [key, finish(totals)]))
  return { ...finish(all), by_model: out('by_model'), by_credential: out('by_credential'), by_client_key: out('by_client_key'), by_session: out('by_session'), by_hour: out('by_hour'), by_day: out('by_day') }
}
