import { useState } from 'preact/hooks'
import { download, get } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import { formatNumber, formatTime } from '../format.ts'
import { answeringAttempt, bodyText, statusClass, timeline, type FlightRecord, type RequestsPage } from '../recorded.ts'
import { Section, SelectField } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { FamilyName } from '../components/family-name.tsx'
import { BodyCompare } from '../components/body-compare.tsx'
import { RequestRouting } from '../components/request-routing.tsx'
import { StreamTimeline } from '../components/stream-timeline.tsx'
import { ReplayForm } from '../components/replay-form.tsx'

/** One recorded request: every hop side by side, the routing decision, the stream timeline; replay and export. */
export function RequestView({ id }: { id: string }) {
  const path = `/requests/${encodeURIComponent(id)}`
  const record = useLoad(() => get<FlightRecord>(path))
  const replays = useLoad(() => get<RequestsPage>(`/requests?replay-of=${encodeURIComponent(id)}`))
  const { notice, busy, act } = useAction()
  const [chosen, setChosen] = useState<number>()
  const r = record.data
  return (
    <>
      <p><a href="#/requests">← All requests</a></p>
      <h1>Request <code class="request-id">{id}</code></h1>
      <ErrorLine error={record.error} />
      {r && (
        <>
          <Section title="Summary" actions={
            <button type="button" disabled={busy} data-export onClick={() => act(() => download(`${path}/fixture`, `recorder-${id}.json`), 'fixture downloaded')}>Export as fixture</button>}>
            <NoticeLine notice={notice} />
            <dl class="limits" data-summary>
              <div><dt>Status</dt><dd><span class={`badge ${statusClass(r.status, r.error)}`} data-status={r.status}>{r.status || 'no answer'}</span></dd></div>
              <div><dt>When</dt><dd>{formatTime(r.time)} · {formatNumber(Math.round(r.durationMs))} ms</dd></div>
              <div><dt>Model</dt><dd><code>{r.model}</code>{r.servedModel && r.servedModel !== r.model && <> → <code>{r.servedModel}</code></>}</dd></div>
              <div><dt>Client</dt><dd>{r.format} · <code>{r.path}</code>{r.stream ? ' · stream' : ''}</dd></div>
              <div><dt>Key</dt><dd>{r.keyName ?? (r.replayOf ? 'none (the operator\'s replay)' : '—')} {r.clientKey && <code class="muted">{r.clientKey}</code>}</dd></div>
              <div><dt>Served by</dt><dd>{r.family ? <FamilyName family={r.family} /> : '—'} {r.credential && <code>{r.credential}</code>} · {r.attemptCount} attempt{r.attemptCount === 1 ? '' : 's'}</dd></div>
              <div><dt>Usage</dt><dd data-usage>{r.usage ? `${formatNumber(r.usage.inputTokens)} in · ${formatNumber(r.usage.outputTokens)} out${r.usage.cachedInputTokens ? ` · ${formatNumber(r.usage.cachedInputTokens)} cached` : ''}${r.usage.reasoningTokens ? ` · ${formatNumber(r.usage.reasoningTokens)} reasoning` : ''}` : '—'}</dd></div>
              <div><dt>Cost</dt><dd>{r.cost === undefined ? 'no price known' : `$${r.cost.toFixed(6)}`}</dd></div>
              <div><dt>Dropped in translation</dt><dd data-dropped>{r.dropped?.length ? r.dropped.join(', ') : 'nothing'}</dd></div>
              {r.replayOf && <div><dt>Replay of</dt><dd><a href={`#/requests/${encodeURIComponent(r.replayOf)}`} data-replay-of>{r.replayOf}</a></dd></div>}
              <div><dt>Instance</dt><dd><code>{r.instance}</code></dd></div>
            </dl>
            {r.error && <p class="notice error" data-record-error>{r.error}</p>}
          </Section>
          <Hops record={r} chosen={chosen} onChoose={setChosen} />
          <RequestRouting record={r} />
          <Section title="Stream timeline">
            <StreamTimeline events={timeline(r)} omitted={(answeringAttempt(r)?.response?.stream?.omitted ?? 0) + (r.client.response.stream?.omitted ?? 0)} />
          </Section>
          <Section title="Replay">
            <p class="muted">Sends the recorded client request again through the proxy (same route, routing and translation), as the operator: no client key, so its limits do not count it. The answer is recorded as a new request linked to this one.</p>
            <ReplayForm record={r} onReplayed={() => void replays.reload()} />
            {(replays.data?.requests.length ?? 0) > 0 && (
              <>
                <h3 class="sub">Replays of this request</h3>
                <ul class="entries" data-replays>
                  {replays.data!.requests.map(row => (
                    <li key={row.id} data-replay={row.id}><span class="entry-text"><a href={`#/requests/${encodeURIComponent(row.id)}`}>{formatTime(row.time)}</a>
                      <span class={`badge ${statusClass(row.status, row.error)}`}>{row.status}</span> <code>{row.model}</code> <span class="muted">{row.family} {row.credential}</span></span></li>
                  ))}
                </ul>
              </>
            )}
          </Section>
        </>
      )}
    </>
  )
}

/** The four bodies: client request against the upstream request of one attempt, and that attempt's answer against the client's. */
function Hops({ record, chosen, onChoose }: { record: FlightRecord; chosen?: number; onChoose: (n: number) => void }) {
  const answering = answeringAttempt(record)
  const attempt = record.attempts.find(a => a.number === chosen) ?? answering
  const client = record.client
  const label = (n: number) => `attempt ${n + 1}`
  return (
    <>
      {record.attempts.length > 1 && (
        <div class="toolbar hop-pick">
          <SelectField label="Upstream side shows" name="hop-attempt" value={String(attempt?.number ?? '')} onChange={v => onChoose(Number(v))}
            options={record.attempts.map(a => [String(a.number), `#${a.number + 1} ${a.credential} · ${a.status ?? 'running'}`] as [string, string])} hint="Attempt number, credential and the status it got." />
        </div>
      )}
      <BodyCompare id="request" title="Request: client → upstream"
        left={{ title: 'Client request', detail: `${client.request.method} ${client.request.path}`, headers: client.request.headers, text: bodyText(client.request), sorted: bodyText(client.request, true) }}
        right={attempt
          ? { title: `Upstream request (${label(attempt.number)})`, detail: `${attempt.request.method} ${attempt.request.url}`, headers: attempt.request.headers, text: bodyText(attempt.request), sorted: bodyText(attempt.request, true) }
          : { title: 'Upstream request', text: '' }} />
      <BodyCompare id="answer" title="Answer: upstream → client"
        left={attempt?.response
          ? { title: `Upstream answer (${label(attempt.number)})`, detail: `status ${attempt.response.status}`, headers: attempt.response.headers, text: bodyText(attempt.response), sorted: bodyText(attempt.response, true) }
          : { title: 'Upstream answer', detail: attempt ? 'no answer (no connection)' : 'no attempt', text: '' }}
        right={{ title: 'Client answer', detail: `status ${client.response.status}`, headers: client.response.headers, text: bodyText(client.response), sorted: bodyText(client.response, true) }} />
    </>
  )
}
