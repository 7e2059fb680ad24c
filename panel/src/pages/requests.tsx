import { useEffect, useRef, useState } from 'preact/hooks'
import { get, put } from '../api.ts'
import { formatNumber, formatTime } from '../format.ts'
import { hashDetail } from '../routes.ts'
import { mergeRows, pollFrom, noFilter, requestsQuery, statusClass, type RecordSummary, type RequestFilter, type RequestsPage } from '../recorded.ts'
import { Section, SelectField, TextField } from '../components/field.tsx'
import { ErrorLine } from '../components/notice.tsx'
import { FamilyName } from '../components/family-name.tsx'
import { RequestView } from './request-view.tsx'

const pageSize = 50
const statusOptions: Array<[string, string]> = [['', 'Any status'], ['error', 'Failed (incl. broken streams)'], ['4xx', '4xx'], ['5xx', '5xx'], ['2xx', '2xx'], ['ok', 'Succeeded']]

/** `#/requests` lists the recorded requests; `#/requests/<id>` shows one. */
export function Requests() {
  const [id, setId] = useState(hashDetail(location.hash))
  useEffect(() => {
    const onHash = () => setId(hashDetail(location.hash))
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])
  return id ? <RequestView key={id} id={id} /> : <RequestList />
}

/** Live list (a poll every 2 s asks only from a little before the newest row shown), filters, newest first, older pages on demand. */
function RequestList() {
  const [form, setForm] = useState<RequestFilter>(noFilter)
  const [filter, setFilter] = useState<RequestFilter>(noFilter)
  const [rows, setRows] = useState<RecordSummary[]>([])
  const [page, setPage] = useState<RequestsPage>()
  const [older, setOlder] = useState<string>()
  const [error, setError] = useState<string>()
  const [paused, setPaused] = useState(false)
  const rowsRef = useRef(rows)
  rowsRef.current = rows
  // An answer for a filter no longer applied (a slow poll) is dropped, not merged.
  const applied = useRef(filter)
  applied.current = filter

  const load = async (fresh: boolean) => {
    const asked = filter
    try {
      const since = fresh ? undefined : pollFrom(rowsRef.current)
      const answer = await get<RequestsPage>(`/requests${requestsQuery(filter, { limit: since === undefined ? pageSize : 500, since })}`)
      if (applied.current !== asked) return
      setPage(answer)
      setRows(fresh ? answer.requests : mergeRows(rowsRef.current, answer.requests, false))
      if (fresh) setOlder(answer.next)
      setError(undefined)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  useEffect(() => { void load(true) }, [filter])
  useEffect(() => {
    if (paused) return
    const timer = setInterval(() => { if (!document.hidden) void load(false) }, 2000)
    return () => clearInterval(timer)
  }, [paused, filter])

  const loadOlder = async () => {
    try {
      const answer = await get<RequestsPage>(`/requests${requestsQuery(filter, { limit: pageSize, cursor: older })}`)
      if (applied.current !== filter) return
      setRows(mergeRows(rowsRef.current, answer.requests))
      setOlder(answer.next)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  const turnOn = async (mode: 'errors' | 'all') => {
    try {
      await put('/recorder/mode', { value: mode })
      setFilter({ ...filter })
    } catch (failure) {
      setError((failure as Error).message)
    }
  }
  const set = (name: keyof RequestFilter) => (value: string) => setForm({ ...form, [name]: value })
  const apply = (e: Event) => { e.preventDefault(); setFilter(form) }

  return (
    <>
      <h1>Requests</h1>
      <ErrorLine error={error} />
      {page?.mode === 'off' && (
        <div class="notice warn" data-recorder-off>
          <p>The flight recorder is off: no request is recorded. Turning it on writes <code>recorder.mode</code> to the config and applies at once.</p>
          <div class="actions">
            <button type="button" class="small" onClick={() => void turnOn('errors')}>Record failed requests</button>
            <button type="button" class="small" onClick={() => void turnOn('all')}>Record every request</button>
          </div>
          <pre class="snippet">{'recorder:\n  mode: errors   # or sampled\n  # (sample: 0.1), or all'}</pre>
        </div>
      )}
      <Section title="Filters">
        <form class="toolbar" onSubmit={apply} aria-label="Filter requests">
          <TextField label="Client key" name="req-key" value={form.key} onInput={set('key')} placeholder="key name or key id (key-…)" />
          <TextField label="Model" name="req-model" value={form.model} onInput={set('model')} placeholder="asked or served" />
          <SelectField label="Status" name="req-status" value={form.status} onChange={set('status')} options={statusOptions} />
          <TextField label="From" name="req-from" type="datetime-local" value={form.from} onInput={set('from')} />
          <TextField label="To" name="req-to" type="datetime-local" value={form.to} onInput={set('to')} />
          <button type="submit" class="primary">Apply</button>
          <button type="button" onClick={() => { setForm(noFilter); setFilter(noFilter) }}>Clear</button>
        </form>
      </Section>
      <Section title={`${rows.length} shown${page ? ` · ${formatNumber(page.total)} in the ring · mode ${page.mode}` : ''}`} actions={
        <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>{paused ? 'Resume' : 'Pause'}</button>}>
        {page && !rows.length && <p class="muted">No recorded request matches.</p>}
        {rows.length > 0 && <RequestRows rows={rows} />}
        {older && <button type="button" onClick={() => void loadOlder()} data-older>Load older</button>}
      </Section>
    </>
  )
}

function RequestRows({ rows }: { rows: RecordSummary[] }) {
  return (
    <div class="table-wrap">
      <table class="requests-table stack">
        <thead><tr><th scope="col">Time</th><th scope="col">Status</th><th scope="col">Model</th><th scope="col">Key</th><th scope="col">Client</th><th scope="col">Served by</th><th scope="col">Took</th><th scope="col">Tokens</th></tr></thead>
        <tbody>
          {rows.map(row => (
            <tr key={row.id} data-request={row.id} data-status={row.status}>
              <th scope="row"><a href={`#/requests/${encodeURIComponent(row.id)}`}>{formatTime(row.time)}</a>{row.replayOf && <div class="muted">replay</div>}</th>
              <td data-label="Status"><span class={`badge ${statusClass(row.status, row.error)}`}>{row.status || 'no answer'}</span>{row.error && <div class="muted clip" title={row.error}>{row.error}</div>}</td>
              <td data-label="Model"><code>{row.model}</code>{row.servedModel && row.servedModel !== row.model && <div class="muted">→ {row.servedModel}</div>}</td>
              <td data-label="Key">{row.keyName ?? row.clientKey ?? '—'}</td>
              <td data-label="Client">{row.format}{row.stream ? ' · stream' : ''}<div class="muted"><code>{row.path}</code></div></td>
              <td data-label="Served by">{row.family ? <FamilyName family={row.family} /> : '—'}{row.credential && <div class="muted"><code>{row.credential}</code></div>}</td>
              <td data-label="Took" class="num">{formatNumber(Math.round(row.durationMs))} ms<div class="muted" data-attempts={row.attemptCount}>{row.attemptCount} attempt{row.attemptCount === 1 ? '' : 's'}</div></td>
              <td data-label="Tokens" class="num">{row.usage ? formatNumber(row.usage.totalTokens ?? row.usage.inputTokens + row.usage.outputTokens) : '—'}{row.cost !== undefined && <div class="muted">${row.cost.toFixed(4)}</div>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
