import { get } from '../api.ts'
import { useLoad } from '../hooks.ts'
import { formatNumber, formatPercent, formatUptime } from '../format.ts'
import { ErrorLine } from '../components/notice.tsx'
import { Section } from '../components/field.tsx'
import { CredentialTable, type CredentialRow } from '../components/credential-table.tsx'
import { FamilyLegend } from '../components/family-name.tsx'
import { Activity } from './dashboard-activity.tsx'

interface Status {
  version: string; commit: string; 'uptime-seconds': number; 'requests-per-minute': number; 'errors-per-minute': number
  'error-rate': number; 'window-seconds': number; 'window-requests': number; 'window-client-mistakes'?: number
  credentials: { total: number; ready: number; cooldown: number; blocked: number; disabled: number }
}

/** Live overview: `GET /status` and `GET /credentials` (every 2 s), and the activity charts. */
export function Dashboard() {
  const status = useLoad(() => get<Status>('/status'), 2000)
  const credentials = useLoad(() => get<{ credentials: CredentialRow[] }>('/credentials'), 2000)
  const s = status.data
  return (
    <>
      <h1>Dashboard</h1>
      <ErrorLine error={status.error} />
      <div class="stats" aria-live="polite">
        <Stat label="Version" value={s ? `${s.version}` : '…'} detail={s?.commit && s.commit !== 'unknown' ? s.commit : undefined} id="version" />
        <Stat label="Uptime" value={s ? formatUptime(s['uptime-seconds']) : '…'} id="uptime" />
        <Stat label="Requests / min" value={s ? formatNumber(s['requests-per-minute']) : '…'} id="rpm" />
        <Stat label="Error rate" value={s ? formatPercent(s['error-rate']) : '…'} detail={s ? `upstream and proxy failures of ${s['window-requests']} requests in ${s['window-seconds'] / 60} min; ${s['window-client-mistakes'] ?? 0} client mistakes not counted` : undefined} id="error-rate" />
        <Stat label="Credentials" value={s ? String(s.credentials.total) : '…'} id="credentials"
          detail={s ? `${s.credentials.ready} ready · ${s.credentials.cooldown} cooldown · ${s.credentials.blocked} blocked · ${s.credentials.disabled} disabled` : undefined} />
      </div>
      <Activity />
      <Section title="Credentials">
        <ErrorLine error={credentials.error} />
        {credentials.data && <CredentialTable rows={credentials.data.credentials} onChange={credentials.reload} />}
        {credentials.data && <p class="muted table-note">Attempts and latency count every upstream attempt on this instance since it started: a retry that failed here counts as this credential's failure even when another answered.</p>}
        {credentials.data && <FamilyLegend only={[...new Set(credentials.data.credentials.map(row => row.family))]} />}
      </Section>
    </>
  )
}

function Stat({ label, value, detail, id }: { label: string; value: string; detail?: string; id: string }) {
  return (
    <div class="stat" data-stat={id}>
      <div class="stat-label">{label}</div>
      <div class="stat-value">{value}</div>
      {detail && <div class="stat-detail muted">{detail}</div>}
    </div>
  )
}
