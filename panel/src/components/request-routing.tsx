import { formatTime } from '../format.ts'
import type { FlightRecord } from '../recorded.ts'
import { FamilyName } from './family-name.tsx'

const ms = (value: number | undefined) => value === undefined ? '—' : `${Math.round(value)} ms`

/** The routing decision: rule, candidates, waits, and every attempt with its status, timing and what came next. */
export function RequestRouting({ record }: { record: FlightRecord }) {
  const routing = record.routing
  return (
    <section class="card" data-routing>
      <div class="card-head"><h2>Routing</h2></div>
      {routing
        ? (
          <dl class="limits">
            <div><dt>Rule</dt><dd>{routing.rule ?? 'none (the model as asked)'}</dd></div>
            <div><dt>Model routed</dt><dd><code>{routing.model}</code></dd></div>
            <div><dt>Answered by model</dt><dd><code>{routing.servedModel ?? record.servedModel ?? record.model}</code>{(routing.servedModel ?? record.servedModel) && ' (rule or fallback)'}</dd></div>
            {routing.session && <div><dt>Session</dt><dd><code>{routing.session}</code></dd></div>}
            {routing.error && <div><dt>No credential</dt><dd>{routing.error}</dd></div>}
            {routing.waits?.map((wait, i) => <div key={i}><dt>Waited</dt><dd>{ms(wait.until - wait.at)} for a cooling credential</dd></div>)}
          </dl>
        )
        : <p class="muted">No routing decision was recorded (the request failed before routing).</p>}
      {routing && routing.candidates.length > 0 && (
        <>
          <h3 class="sub">Candidates</h3>
          <ul class="candidates">
            {routing.candidates.map(c => <li key={c.credential} data-candidate={c.credential}><code>{c.credential}</code> <FamilyName family={c.family} /> <span class="muted">{c.provider} · sends <code>{c.upstreamModel}</code></span></li>)}
          </ul>
        </>
      )}
      <h3 class="sub">Attempts</h3>
      {!record.attempts.length && <p class="muted">No upstream attempt.</p>}
      {record.attempts.length > 0 && (
        <div class="table-wrap">
          <table class="attempts stack">
            <thead><tr><th scope="col">#</th><th scope="col">Credential</th><th scope="col">Model</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">First byte</th><th scope="col">Took</th><th scope="col">Then</th></tr></thead>
            <tbody>
              {record.attempts.map(a => (
                <tr key={a.number} data-attempt={a.number} data-status={a.status}>
                  <th scope="row">{a.number + 1}</th>
                  <td data-label="Credential"><code>{a.credential}</code> <FamilyName family={a.family} /></td>
                  <td data-label="Model"><code>{a.model}</code> <span class="muted">→ <code>{a.upstreamModel}</code></span></td>
                  <td data-label="Status">{a.status === undefined ? 'running' : a.status === 0 ? 'no connection' : a.status}{a.message && <div class="muted clip" title={a.message}>{a.message}</div>}</td>
                  <td data-label="Started" class="num">+{ms(a.startedAt)}</td>
                  <td data-label="First byte" class="num">{ms(a.firstByteMs)}</td>
                  <td data-label="Took" class="num">{ms(a.durationMs)}</td>
                  <td data-label="Then">
                    {a.action ?? '—'}
                    {a.retryWith && <div class="muted">retry with <code>{a.retryWith}</code></div>}
                    {a.retryAfter !== undefined && <div class="muted">Retry-After {a.retryAfter} s</div>}
                    {a.cooldownUntil !== undefined && <div class="muted" data-cooldown>cooldown until {formatTime(a.cooldownUntil)}</div>}
                    {a.bootstrap && <div class="muted">stream died before its first event</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
