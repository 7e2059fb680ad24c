import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, del, download, get, put } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import { formatBytes, formatTime } from '../format.ts'
import { emptyTail, filterLines, lineLevel, mergeTail, nextAfter, type Tail } from '../log-tail.ts'
import { Section, SelectField, TextField } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { ConfirmButton } from '../components/confirm-button.tsx'

interface LogAnswer { lines: string[]; 'line-count': number; 'latest-timestamp': number }

/** Live tail of main.log (polled every 2 s with `after=`), filter and level; error request logs to download. */
export function Logs() {
  const [tail, setTail] = useState<Tail>(emptyTail)
  const [error, setError] = useState<ApiError>()
  const [paused, setPaused] = useState(false)
  const [level, setLevel] = useState('')
  const [filter, setFilter] = useState('')
  const tailRef = useRef(tail)
  tailRef.current = tail
  // Asked first (and again every 5 s): with file logging off there is no main.log, and no request is sent for it.
  const logging = useLoad(() => get<{ 'logging-to-file': boolean }>('/logging-to-file').then(body => body['logging-to-file']), 5000)
  const on = logging.data === true
  const errorLogs = useLoad(() => get<{ files: Array<{ name: string; size: number; modified: number }> }>('/request-error-logs').then(body => body.files), 3000)
  const { notice, busy, act } = useAction()
  const box = useRef<HTMLPreElement>(null)

  const poll = async () => {
    const current = tailRef.current
    try {
      const query = current.latest ? `after=${nextAfter(current)}` : 'limit=500'
      const answer = await get<LogAnswer>(`/logs?${query}`)
      setTail(mergeTail(tailRef.current, answer.lines))
      setError(undefined)
    } catch (failure) {
      setError(failure as ApiError)
    }
  }
  useEffect(() => {
    if (paused || !on) return
    void poll()
    const timer = setInterval(() => { if (!document.hidden) void poll() }, 2000)
    return () => clearInterval(timer)
  }, [paused, on])
  const shown = filterLines(tail.lines, level, filter)
  useEffect(() => { if (box.current && !paused) box.current.scrollTop = box.current.scrollHeight }, [shown.length])
  const disabled = logging.data === false || (error?.status === 400 && /logging to file disabled/.test(error.message))

  return (
    <>
      <h1>Logs</h1>
      {disabled
        ? <p class="notice warn">Logging to file is off, so there is nothing to tail.{' '}
            <button type="button" class="small" onClick={() => act(async () => { await put('/logging-to-file', { value: true }); setError(undefined); await logging.reload() }, 'logging to file on')}>Turn on</button></p>
        : <ErrorLine error={error?.message ?? logging.error} />}
      <NoticeLine notice={notice} />
      <Section title="main.log" actions={<>
        <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>{paused ? 'Resume' : 'Pause'}</button>
        <ConfirmButton label="Clear logs" onConfirm={() => act(async () => { await del('/logs'); setTail(emptyTail); await poll() }, 'logs cleared')} disabled={busy} />
      </>}>
        <div class="toolbar">
          <TextField label="Filter" name="log-filter" value={filter} onInput={setFilter} placeholder="text to find" />
          <SelectField label="Level" name="log-level" value={level} onChange={setLevel} options={[['', 'All levels'], ['ERROR', 'ERROR'], ['WARN', 'WARN'], ['INFO', 'INFO'], ['DEBUG', 'DEBUG']]} />
          <span class="muted" aria-live="polite">{shown.length} of {tail.lines.length} lines{paused ? ' (paused)' : ''}</span>
        </div>
        <pre class="logbox" ref={box} tabIndex={0} aria-label="Log lines">
          {shown.map((line, i) => <div key={i} class={`log-${lineLevel(line).toLowerCase()}`}>{line}</div>)}
        </pre>
      </Section>
      <Section title="Error request logs">
        <ErrorLine error={errorLogs.error} />
        {errorLogs.data && !errorLogs.data.length && <p class="muted">No error request logs (or request-log is on, which keeps every request instead).</p>}
        <ul class="entries">
          {(errorLogs.data ?? []).map(file => (
            <li key={file.name} data-error-log={file.name}>
              <span class="entry-text"><code>{file.name}</code> <span class="muted">{formatBytes(file.size)} · {formatTime(file.modified)}</span></span>
              <button type="button" class="small" onClick={() => act(() => download(`/request-error-logs/${encodeURIComponent(file.name)}`, file.name), `downloaded ${file.name}`)}>Download</button>
            </li>
          ))}
        </ul>
      </Section>
    </>
  )
}
