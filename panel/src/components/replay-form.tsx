import { useState } from 'preact/hooks'
import { get, post } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import type { RecordSummary } from '../recorded.ts'
import type { CredentialRow } from './credential-table.tsx'
import type { ModelsAnswer } from '../pages/models.tsx'
import { SelectField } from './field.tsx'
import { NoticeLine } from './notice.tsx'

interface ReplayAnswer { id: string; replayOf: string; status: number; request?: RecordSummary }

/** Sends the recorded request again (optionally to another model or one credential) and links the new record. */
export function ReplayForm({ record, onReplayed }: { record: RecordSummary; onReplayed: () => void }) {
  const models = useLoad(() => get<ModelsAnswer>('/models'))
  const credentials = useLoad(() => get<{ credentials: CredentialRow[] }>('/credentials'))
  const [model, setModel] = useState('')
  const [credential, setCredential] = useState('')
  const [result, setResult] = useState<ReplayAnswer>()
  const { notice, busy, act } = useAction()
  const target = model || record.model
  // Credentials that serve the target model (the server refuses the others); the whole list when none is known to.
  const all = credentials.data?.credentials ?? []
  const serving = all.filter(c => c.models.includes(target))
  const choices = serving.length ? serving : all

  const replay = (e: Event) => {
    e.preventDefault()
    void act(async () => {
      const answer = await post<ReplayAnswer>(`/requests/${encodeURIComponent(record.id)}/replay`, { ...(model && { model }), ...(credential && { credential }) })
      setResult(answer)
      onReplayed()
      return answer
    }, answer => `replayed: status ${answer.status}`)
  }
  return (
    <form class="replay" onSubmit={replay} aria-label="Replay">
      <div class="toolbar">
        <SelectField label="Model" name="replay-model" value={model} onChange={(value) => { setModel(value); setCredential('') }}
          options={[['', `as recorded (${record.model})`], ...(models.data?.models ?? []).filter(m => m.id !== record.model).map(m => [m.id, `${m.id} (${[...new Set(m.upstreams.map(u => u.family))].join(', ')})`] as [string, string])]} />
        <SelectField label="Credential" name="replay-credential" value={credential} onChange={setCredential}
          options={[['', 'as routing picks'], ...choices.map(c => [c.id, `${c.id} (${c.family})`] as [string, string])]} />
        <button type="submit" class="primary" disabled={busy}>{busy ? 'Replaying…' : 'Replay'}</button>
      </div>
      <NoticeLine notice={notice} />
      {result && (
        <p class="notice ok" data-replay-result={result.id}>
          New record <a href={`#/requests/${encodeURIComponent(result.id)}`}>{result.id}</a>: status {result.status}
          {result.request && <> · {result.request.model} via {result.request.family ?? '—'} <code>{result.request.credential ?? ''}</code></>}
        </p>
      )}
    </form>
  )
}
