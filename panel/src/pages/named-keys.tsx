import { useState } from 'preact/hooks'
import { del, get, patch, post } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import { onListedEntry } from '../fresh-list.ts'
import { Section } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { NewKeyForm } from '../components/named-key-form.tsx'
import { NamedKeyRow, type NamedKey, type Recent } from '../components/named-key-row.tsx'

/** A key just created (or rotated): shown this once, with a copy button. */
function ShownOnce({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false)
  return (
    <div class="notice ok" role="status" data-new-key={name}>
      <p>Key for <strong>{name}</strong>: copy it now, it is not shown again (the proxy keeps only its hash).</p>
      <code class="entry-text" data-secret>{secret}</code>
      <div class="actions">
        <button type="button" class="small" onClick={() => { void navigator.clipboard?.writeText(secret).then(() => setCopied(true), () => setCopied(false)) }}>{copied ? 'Copied' : 'Copy'}</button>
        <button type="button" class="small" onClick={onDone}>Done</button>
      </div>
    </div>
  )
}

/** Named client keys (`/client-keys`): create (key shown once), limits, spend against budget, recent requests. */
export function NamedKeys() {
  const keys = useLoad(() => get<{ 'client-keys': NamedKey[] }>('/client-keys').then(body => body['client-keys']), 5000)
  const { notice, busy, act } = useAction()
  const [created, setCreated] = useState<{ name: string; key: string }>()
  const list = keys.data ?? []
  const create = (body: Record<string, unknown>) => act(async () => {
    const answer = await post<{ name: string; key: string }>('/client-keys', body)
    setCreated({ name: answer.name, key: answer.key })
    await keys.reload()
  }, 'key created')
  // A key another tab removed or renamed: the list is read again and the notice says it is gone (fresh-list.ts).
  const onKey = (name: string, work: () => Promise<void>) => onListedEntry(`key ${JSON.stringify(name)}`, keys.reload, work)
  const change = (name: string, body: Record<string, unknown>, done: string) => act(() => onKey(name, async () => {
    const answer = await patch<{ name: string; key?: string }>(`/client-keys/${encodeURIComponent(name)}`, body)
    if (answer.key) setCreated({ name: answer.name, key: answer.key })
    await keys.reload()
  }), done)
  const remove = (name: string) => act(() => onKey(name, async () => { await del(`/client-keys/${encodeURIComponent(name)}`); await keys.reload() }), 'key removed')
  const recentOf = async (name: string) => {
    let found: Recent[] | undefined
    await act(() => onKey(name, async () => { found = (await get<{ recent: Recent[] }>(`/client-keys/${encodeURIComponent(name)}`)).recent }))
    return found
  }
  return (
    <>
      <h1>Named keys</h1>
      <p class="muted">Keys with a name and rules: which models, requests and tokens per minute, a budget in USD per day, week, month or in total, an expiry. With Redis storage the limits hold for every instance together.</p>
      <ErrorLine error={keys.error} />
      <NoticeLine notice={notice} />
      {created && <ShownOnce name={created.name} secret={created.key} onDone={() => setCreated(undefined)} />}
      <Section title="Create a key">
        <NewKeyForm busy={busy} onCreate={create} />
      </Section>
      <Section title={`Keys (${list.length})`}>
        {!list.length && <p class="muted">No named keys yet.</p>}
        <ul class="entries">
          {list.map(key => <NamedKeyRow key={key.name} entry={key} busy={busy} onChange={(body, done) => change(key.name, body, done)} onRemove={() => remove(key.name)} onRecent={() => recentOf(key.name)} />)}
        </ul>
      </Section>
    </>
  )
}
