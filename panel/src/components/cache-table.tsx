import { formatNumber, formatPercent } from '../format.ts'

export interface CacheTotals { requests: number; input_tokens: number; cached_tokens: number; cache_hit_ratio?: number }

/** Prompt-cache hits per credential or per session (sticky sessions keep them high), busiest first. */
export function CacheTable({ id, title, rows, limit = 20 }: { id: string; title: string; rows: Record<string, CacheTotals> | undefined; limit?: number }) {
  const entries = Object.entries(rows ?? {}).sort(([, a], [, b]) => b.requests - a.requests).slice(0, limit)
  return (
    <div class="chart" data-cache={id}>
      <h3>{title}</h3>
      {entries.length ? (
        <table>
          <thead><tr><th>{id === 'session' ? 'Session' : 'Credential'}</th><th>Requests</th><th>Input tokens</th><th>Cache hit ratio</th></tr></thead>
          <tbody>
            {entries.map(([name, totals]) => (
              <tr key={name}><td><code>{name}</code></td><td>{formatNumber(totals.requests)}</td><td>{formatNumber(totals.input_tokens)}</td><td>{formatPercent(totals.cache_hit_ratio ?? 0)}</td></tr>
            ))}
          </tbody>
        </table>
      ) : <p class="muted">Nothing recorded yet.</p>}
    </div>
  )
}
