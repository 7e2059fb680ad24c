import { useEffect, useRef, useState } from 'preact/hooks'
import { del, get, patch, put } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import { maskKey } from '../entries.ts'
import { entryRef } from '../entry-ref.ts'
import { onListedEntry, unchangedSince } from '../fresh-list.ts'
import { Section, TextField } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { ConfirmButton, focusMain } from '../components/confirm-button.tsx'

/** PATCH /api-keys naming the key by its value where it is unique (entry-ref.ts): `{old, new}`, else `{index, value}`. */
function replaceBody(list: string[], index: number, value: string): Record<string, unknown> {
  const { body } = entryRef(list, index)
  return 'old' in body ? { ...body, new: value } : { ...body, value }
}

/** `sk-` and 32 random hex digits from the browser's CSPRNG. */
const generateKey = () => `sk-${Array.from(crypto.getRandomValues(new Uint8Array(16)), b => b.toString(16).padStart(2, '0')).join('')}`

/** Client API keys (`/api-keys`): add, replace one, remove one. */
export function ClientKeys() {
  const keys = useLoad(() => get<{ 'api-keys': string[] }>('/api-keys').then(body => body['api-keys']))
  const { notice, busy, act } = useAction()
  const [draft, setDraft] = useState('')
  const [editing, setEditing] = useState<{ index: number; value: string }>()
  const [shown, setShown] = useState<Set<number>>(new Set())
  const list = keys.data ?? []
  // Keyboard use: Edit swaps the row for a form (the pressed button is gone, the focus with it), so the
  // form's field takes the focus, and the row's Edit gets it back when the form closes.
  const wasEditing = useRef<number | undefined>(undefined)
  useEffect(() => {
    if (editing) document.getElementById(`field-client-key-${editing.index}`)?.focus()
    else if (wasEditing.current !== undefined) document.querySelector<HTMLElement>(`[data-client-key="${wasEditing.current}"] [data-edit]`)?.focus()
    wasEditing.current = editing?.index
  }, [editing?.index])

  // A key another tab removed or replaced: the form closes (its index may name another key of the fresh
  // list), the list is read again and the notice says so.
  const onKey = (index: number, work: () => Promise<void>) => onListedEntry(`key ${index + 1} (${maskKey(list[index] ?? '')})`, async () => { setEditing(undefined); await keys.reload() }, work)

  const add = (event: Event) => {
    event.preventDefault()
    const value = draft.trim()
    if (!value) return
    void act(async () => {
      // Refused when another tab changed the keys meanwhile (fresh-list.ts); the draft stays to add again.
      try { await unchangedSince('/api-keys', list) } catch (error) { await keys.reload(); throw error }
      await put('/api-keys', [...list, value]); setDraft(''); await keys.reload()
    }, 'key added')
  }
  return (
    <>
      <h1>Client keys</h1>
      <p class="muted">Keys clients send as <code>Authorization: Bearer</code>, <code>x-api-key</code>, <code>x-goog-api-key</code> or <code>?key=</code>. With none, only loopback clients are served.</p>
      <ErrorLine error={keys.error} />
      <NoticeLine notice={notice} />
      <Section title="Add a key">
        <form class="inline-form" onSubmit={add}>
          <TextField label="New key" name="new-client-key" value={draft} onInput={setDraft} placeholder="sk-..." />
          <button type="button" onClick={() => setDraft(generateKey())}>Generate</button>
          <button type="submit" class="primary" disabled={busy || !draft.trim()}>Add key</button>
        </form>
      </Section>
      <Section title={`Keys (${list.length})`}>
        {!list.length && <p class="muted">No client keys: only loopback clients are served.</p>}
        <ul class="entries">
          {list.map((key, index) => (
            <li key={index} data-client-key={index}>
              {editing?.index === index ? (
                <form class="inline-form" onSubmit={(e) => { e.preventDefault(); void act(() => onKey(index, async () => { await patch('/api-keys', replaceBody(list, index, editing.value.trim())); setEditing(undefined); await keys.reload() }), 'key replaced') }}>
                  <TextField label={`Key ${index + 1}`} name={`client-key-${index}`} value={editing.value} onInput={value => setEditing({ index, value })} />
                  <button type="submit" class="primary" disabled={busy || !editing.value.trim()}>Save</button>
                  <button type="button" onClick={() => setEditing(undefined)}>Cancel</button>
                </form>
              ) : (
                <>
                  <code class="entry-text">{shown.has(index) ? key : maskKey(key)}</code>
                  <div class="actions">
                    <button type="button" class="small" aria-pressed={shown.has(index)} onClick={() => setShown(new Set(shown.has(index) ? [...shown].filter(i => i !== index) : [...shown, index]))}>{shown.has(index) ? 'Hide' : 'Show'}</button>
                    <button type="button" class="small" data-edit onClick={() => setEditing({ index, value: key })}>Edit</button>
                    <ConfirmButton label="Remove" onConfirm={() => act(() => onKey(index, async () => { await del(`/api-keys?${entryRef(list, index).query}`); await keys.reload(); focusMain() }), 'key removed')} />
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      </Section>
    </>
  )
}
