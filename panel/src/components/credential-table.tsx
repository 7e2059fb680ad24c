import { StateBadge, Countdown } from './state-badge.tsx'
import { CredentialActions } from './credential-actions.tsx'

export interface CredentialRow {
  id: string; family: string; provider: string; label: string; priority: number; prefix: string; state: string
  blocked?: string; cooldowns: Array<{ model: string; until: string; failures: number }>; models: string[]
}

/** Every credential with its state; a cooling one shows a live countdown to its soonest reset. */
export function CredentialTable({ rows, onChange }: { rows: CredentialRow[]; onChange: () => void }) {
  if (!rows.length) return <p class="muted">No credentials configured yet: add provider keys or credential files.</p>
  return (
    <div class="table-wrap">
      <table class="credentials">
        <thead><tr><th scope="col">Credential</th><th scope="col">Provider</th><th scope="col">Key</th><th scope="col">State</th><th scope="col">Models</th><th scope="col">Actions</th></tr></thead>
        <tbody>
          {rows.map((row) => {
            const soonest = Math.min(...row.cooldowns.map(c => Date.parse(c.until)))
            return (
              <tr key={row.id} data-credential={row.id} data-state={row.state}>
                <th scope="row"><code>{row.id}</code>{row.prefix && <div class="muted">prefix {row.prefix}</div>}</th>
                <td>{row.provider} <span class="muted">({row.family}, priority {row.priority})</span></td>
                <td><code>{row.label || '—'}</code></td>
                <td>
                  <StateBadge state={row.state} />
                  {row.state === 'cooldown' && Number.isFinite(soonest) && <div><Countdown until={soonest} /></div>}
                  {row.cooldowns.length > 0 && <div class="muted">{row.cooldowns.map(c => `${c.model} ×${c.failures}`).join(', ')}</div>}
                  {row.blocked && <div class="muted">{row.blocked}</div>}
                </td>
                <td class="models">{row.models.slice(0, 6).join(', ')}{row.models.length > 6 && ` +${row.models.length - 6}`}</td>
                <td><CredentialActions id={row.id} state={row.state} onDone={onChange} /></td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
