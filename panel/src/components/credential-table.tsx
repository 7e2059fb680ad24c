import { StateBadge, Countdown } from './state-badge.tsx'
import { CredentialActions } from './credential-actions.tsx'
import { FamilyName } from './family-name.tsx'
import { formatNumber, formatPercent } from '../format.ts'

/** Attempts on one credential since this instance started (`GET /credentials`, `stats`). */
export interface CredentialStats { success: number; errors: number; 'latency-ms'?: number; 'first-byte-ms'?: number; 'last-error'?: { status: number; at: string } }

export interface CredentialRow {
  id: string; family: string; provider: string; label: string; priority: number; prefix: string; state: string
  blocked?: string; cooldowns: Array<{ model: string; until: string; failures: number }>; models: string[]
  'excluded-models'?: string[]; stats?: CredentialStats
}

/** Every credential with its state, its attempts and latency; a cooling one shows a live countdown to its soonest reset. */
export function CredentialTable({ rows, onChange }: { rows: CredentialRow[]; onChange: () => void }) {
  if (!rows.length) return <p class="muted">No credentials configured yet: add provider keys or credential files.</p>
  return (
    <div class="table-wrap">
      <table class="credentials stack">
        <thead><tr><th scope="col">Credential</th><th scope="col">Provider</th><th scope="col">Key</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Latency</th><th scope="col">Models</th><th scope="col">Actions</th></tr></thead>
        <tbody>
          {rows.map((row) => {
            const soonest = Math.min(...row.cooldowns.map(c => Date.parse(c.until)))
            const excluded = row['excluded-models'] ?? []
            return (
              <tr key={row.id} data-credential={row.id} data-state={row.state}>
                <th scope="row"><code>{row.id}</code>{row.prefix && <div class="muted">prefix {row.prefix}</div>}</th>
                <td data-label="Provider">{row.provider} <span class="muted">(<FamilyName family={row.family} />, priority {row.priority})</span></td>
                <td data-label="Key"><code>{row.label || '—'}</code></td>
                <td data-label="State">
                  <StateBadge state={row.state} />
                  {row.state === 'cooldown' && Number.isFinite(soonest) && <div><Countdown until={soonest} /></div>}
                  {row.cooldowns.length > 0 && <div class="muted">{row.cooldowns.map(c => `${c.model} ×${c.failures}`).join(', ')}</div>}
                  {row.blocked && <div class="muted">{row.blocked}</div>}
                </td>
                <td class="num" data-label="Attempts" data-stats="attempts"><Attempts stats={row.stats} /></td>
                <td class="num" data-label="Latency" data-stats="latency"><Latency stats={row.stats} /></td>
                <td class="models" data-label="Models">
                  {row.models.length ? row.models.slice(0, 6).join(', ') : <span class="muted">none</span>}{row.models.length > 6 && ` +${row.models.length - 6}`}
                  {excluded.length > 0 && <div class="muted" data-excluded>excluded: {excluded.join(', ')}</div>}
                </td>
                <td><CredentialActions id={row.id} state={row.state} onDone={onChange} /></td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

function Attempts({ stats }: { stats?: CredentialStats }) {
  if (!stats || stats.success + stats.errors === 0) return <span class="muted">none yet</span>
  const total = stats.success + stats.errors
  const last = stats['last-error']
  return (
    <>
      <span class="ok-count" title="answered attempts">{formatNumber(stats.success)} ok</span>
      {' · '}
      <span class={stats.errors ? 'err-count' : 'muted'} title="failed attempts (retries on this credential count here)">{formatNumber(stats.errors)} failed</span>
      {stats.errors > 0 && <div class="muted">{formatPercent(stats.errors / total)} errors{last && `, last ${last.status || 'no connection'}`}</div>}
    </>
  )
}

function Latency({ stats }: { stats?: CredentialStats }) {
  if (stats?.['latency-ms'] === undefined && stats?.['first-byte-ms'] === undefined) return <span class="muted">—</span>
  return (
    <>
      {stats['latency-ms'] !== undefined && <div title="mean time from sending to the end of the answer">{formatNumber(stats['latency-ms'])} ms</div>}
      {stats['first-byte-ms'] !== undefined && <div class="muted" title="mean time to the upstream's response headers">first byte {formatNumber(stats['first-byte-ms'])} ms</div>}
    </>
  )
}
