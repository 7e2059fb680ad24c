import { useState } from 'preact/hooks'
import { call, del, get } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import { formatBytes, formatTime } from '../format.ts'
import { Section } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { StateBadge } from '../components/state-badge.tsx'
import { ConfirmButton } from '../components/confirm-button.tsx'
import { CredentialActions } from '../components/credential-actions.tsx'
import { SignInFlows } from '../components/sign-in-flow.tsx'

interface AuthFile { name: string; type: string | null; email: string | null; project: string | null; priority: number; state: string; reason?: string; error?: string; size: number; modified: number }

/** Credential files in `auth-dir`: upload, delete, block/unblock, reset cooldown, list models, sign in. */
export function CredentialFiles() {
  const files = useLoad(() => get<{ files: AuthFile[] }>('/auth-files').then(body => body.files), 3000)
  const { notice, busy, act } = useAction()
  const [models, setModels] = useState<Record<string, string>>({})

  const upload = (event: Event) => {
    const input = event.target as HTMLInputElement
    const chosen = [...(input.files ?? [])]
    // Each file on its own: one refused file neither stops the others nor hides which were saved. The
    // input is emptied whatever happens, or choosing the corrected file again would not fire a change.
    input.value = ''
    void act(async () => {
      const uploaded: string[] = []
      const refused: string[] = []
      for (const file of chosen) {
        try {
          let body: unknown
          try { body = JSON.parse(await file.text()) } catch { throw new Error(`${file.name} is not JSON`) }
          await call('POST', `/auth-files?name=${encodeURIComponent(file.name)}`, body)
          uploaded.push(file.name)
        } catch (error) {
          refused.push((error as Error).message)
        }
      }
      await files.reload()
      if (refused.length) throw new Error(`${uploaded.length ? `uploaded ${uploaded.join(', ')}; ` : ''}not uploaded: ${refused.join('; ')}`)
      return uploaded
    }, uploaded => `uploaded ${uploaded.join(', ')}`)
  }
  const showModels = (name: string) => act(async () => {
    const answer = await get<{ models: Array<{ id: string; upstream: string }> }>(`/auth-files/models?name=${encodeURIComponent(name)}`)
    setModels(m => ({ ...m, [name]: answer.models.map(x => x.id === x.upstream ? x.id : `${x.id} → ${x.upstream}`).join(', ') || '(none)' }))
  })

  return (
    <>
      <h1>Credential files</h1>
      <ErrorLine error={files.error} />
      <NoticeLine notice={notice} />
      <Section title="Add accounts">
        <div class="field">
          <label for="upload-files">Upload credential files (.json)</label>
          <input id="upload-files" type="file" accept=".json,application/json" multiple disabled={busy} onChange={upload} />
        </div>
        <SignInFlows onSignedIn={() => void files.reload()} />
      </Section>
      <Section title={`Files (${files.data?.length ?? 0})`} actions={files.data?.length ? <ConfirmButton label="Delete all" onConfirm={() => act(async () => { await del('/auth-files?all=true'); await files.reload() }, 'all files deleted')} /> : undefined}>
        {files.data && !files.data.length && <p class="muted">No credential files in auth-dir.</p>}
        <ul class="entries">
          {(files.data ?? []).map(file => (
            <li key={file.name} data-file={file.name} data-state={file.state}>
              <div class="entry-text">
                <strong>{file.name}</strong> <StateBadge state={file.state} />
                <span>{file.type ?? 'unknown type'}{file.email && ` · ${file.email}`}{file.project && ` · ${file.project}`} · priority {file.priority}</span>
                <span class="muted">{formatBytes(file.size)} · {formatTime(file.modified)}</span>
                {file.reason && <span class="muted">blocked: {file.reason}</span>}
                {file.error && <span class="notice error">{file.error}</span>}
                {models[file.name] && <span>models: {models[file.name]}</span>}
              </div>
              <div class="actions">
                <button type="button" class="small" onClick={() => showModels(file.name)}>Models</button>
                {file.state !== 'invalid' && <CredentialActions id={`file:${file.name}`} state={file.state} onDone={() => void files.reload()} />}
                <ConfirmButton label="Delete" onConfirm={() => act(async () => { await del(`/auth-files?name=${encodeURIComponent(file.name)}`); await files.reload() }, `deleted ${file.name}`)} />
              </div>
            </li>
          ))}
        </ul>
      </Section>
    </>
  )
}
