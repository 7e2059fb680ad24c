import { get } from '../api.ts'
import { useLoad } from '../hooks.ts'
import { formatPercent, formatTime } from '../format.ts'
import { ErrorLine } from './notice.tsx'
import { Section } from './field.tsx'
import { FamilyName } from './family-name.tsx'

interface Window { used: number; resetAt?: number; limit?: number; remaining?: number }
interface Overview {
  strategy: string
  'session-affinity': string
  'session-affinity-ttl': number
  credentials: Array<{ id: string; provider: string; family: string; state: string; sessions: number; headroom: number; windows: Record<string, Window> }>
}

/** Each credential's quota windows as its upstream reports them, its headroom and the sessions it holds (`GET /routing`). */
export function CredentialWindows() {
  const overview = useLoad(() => get<Overview>('/routing'), 5000)
  const data = overview.data
  return (
    <Section title="Credentials: quota windows and sessions">
      <ErrorLine error={overview.error} />
      {data && (
        <>
          <p class="muted">Strategy <code>{data.strategy}</code> · session affinity <code>{data['session-affinity']}</code> (TTL {data['session-affinity-ttl']} s)</p>
          <table class="stack" data-table="credential-windows">
            <thead><tr><th>Credential</th><th>State</th><th>Sessions</th><th>Headroom</th><th>Windows</th></tr></thead>
            <tbody>
              {data.credentials.map(credential => (
                <tr key={credential.id}>
                  <td data-label="Credential"><code>{credential.id}</code> <FamilyName family={credential.family} /></td>
                  <td data-label="State">{credential.state}</td>
                  <td data-label="Sessions">{credential.sessions}</td>
                  <td data-label="Headroom">{formatPercent(credential.headroom)}</td>
                  <td data-label="Windows">{Object.entries(credential.windows).map(([name, window]) => (
                    <div key={name}>{name}: {formatPercent(window.used)} used{window.resetAt ? `, resets ${formatTime(window.resetAt)}` : ''}</div>
                  ))}{!Object.keys(credential.windows).length && <span class="muted">not reported yet</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Section>
  )
}
