import type { ComponentChildren } from 'preact'
import { formatNumber, formatPercent } from '../format.ts'
import type { SeriesTotals } from '../series.ts'

const ms = (value: number | null) => value === null ? '—' : `${formatNumber(value)} ms`

/** One row per group (family, credential, client key): outcomes counted apart, latency, cache, spend. */
export function GroupTable({ id, title, rows, name }: { id: string; title: string; rows: Record<string, SeriesTotals>; name: (key: string) => ComponentChildren }) {
  const entries = Object.entries(rows).sort(([, a], [, b]) => b.requests - a.requests)
  const anyCost = entries.some(([, t]) => t.cost_usd > 0)
  const anyCache = entries.some(([, t]) => t.cache_hit_ratio !== null)
  return (
    <div class="group-table" data-group={id}>
      <h3>{title}</h3>
      {!entries.length ? <p class="muted">No requests in this span.</p> : (
        <div class="table-wrap">
          <table class="stack">
            <thead><tr><th>{title.replace(/^By /, '')}</th><th>Requests</th><th>Client mistakes</th><th>Upstream failures</th><th>Proxy failures</th><th>p50 / p95</th>{anyCache && <th>Cache hit</th>}{anyCost && <th>Spend</th>}</tr></thead>
            <tbody>
              {entries.map(([key, t]) => (
                <tr key={key} data-row={key}>
                  <td data-label="Name">{name(key)}</td>
                  <td data-label="Requests" class="num" data-cell="requests">{formatNumber(t.requests)}</td>
                  <td data-label="Client mistakes" class="num" data-cell="client">{formatNumber(t.client)}</td>
                  <td data-label="Upstream failures" class={`num${t.upstream ? ' err-count' : ''}`} data-cell="upstream">{formatNumber(t.upstream)}</td>
                  <td data-label="Proxy failures" class={`num${t.proxy ? ' err-count' : ''}`} data-cell="proxy">{formatNumber(t.proxy)}</td>
                  <td data-label="p50 / p95" class="num">{ms(t.p50_ms)} / {ms(t.p95_ms)}</td>
                  {anyCache && <td data-label="Cache hit" class="num">{t.cache_hit_ratio === null ? '—' : formatPercent(t.cache_hit_ratio)}</td>}
                  {anyCost && <td data-label="Spend" class="num" data-cell="cost">${t.cost_usd.toFixed(4)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}
