import { useEffect, useState } from 'preact/hooks'
import { del, get, patch, post, put } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import {
  emptyKeyEntry, emptyUpstream, formToKeyEntry, formToUpstream, keyEntryCredentialId, keyEntryToForm, maskKey, needsReplace,
  upstreamCredentialId, upstreamToForm, type KeyEntryForm, type UpstreamForm,
} from '../entries.ts'
import { editableFamilies, loadFamilies, type Family } from '../families.ts'
import { entryRef } from '../entry-ref.ts'
import { ListChanged, onListedEntry, unchangedSince } from '../fresh-list.ts'
import { Section } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { ConfirmButton, focusMain } from '../components/confirm-button.tsx'
import { KeyEntryEditor } from '../components/key-entry-form.tsx'
import { UpstreamEditor } from '../components/upstreams-form.tsx'
import { KeyKindChooser } from '../components/key-kind.tsx'

type Entry = Record<string, any>
/** Each family's list, by its config key. */
type Lists = Record<string, Entry[]>
interface Editing { list: string; index: number }
interface Data { families: Family[]; lists: Lists }

/** The families the server has (GET /providers) and the list under each one's config key. */
async function loadLists(): Promise<Data> {
  const families = editableFamilies(await loadFamilies())
  const keys = families.map(family => family['config-key']!)
  const answers = await Promise.all(keys.map(key => get<Record<string, Entry[]>>(`/${key}`)))
  return { families, lists: Object.fromEntries(keys.map((key, i) => [key, answers[i]![key] ?? []])) }
}

/**
 * Save one entry: new ones by replacing the list (there is no append call), refused if the list changed
 * since the page read it (fresh-list.ts); edits in place with PATCH, naming the entry by its identity.
 */
async function saveEntry(list: string, entries: Entry[], index: number, value: Entry, identity: string): Promise<void> {
  const replace = index < 0 || needsReplace(entries[index]!, value)
  if (!replace) return void await patch(`/${list}`, { ...entryRef(entries, index, identity).body, value })
  await unchangedSince(`/${list}`, entries)
  await put(`/${list}`, index < 0 ? [...entries, value] : entries.map((entry, i) => i === index ? value : entry))
}

/** Provider keys of every family and compat providers: add, edit, remove, and test with one click. */
export function Providers() {
  const lists = useLoad(loadLists)
  const [editing, setEditing] = useState<Editing>()
  const { notice, busy, act } = useAction()
  // An editor opens away from the button that opened it (above the list, or in another family's section
  // for the key-kind chooser): its first field takes the focus, so keyboard use goes on in the form.
  useEffect(() => {
    if (editing) document.querySelector<HTMLElement>('form.editor input, form.editor select')?.focus()
  }, [editing?.list, editing?.index])
  const [tests, setTests] = useState<Record<string, { ok: boolean; text: string }>>({})

  const identityOf = (list: string) => lists.data!.families.find(family => family['config-key'] === list)?.identity ?? 'api-key'
  // An entry another tab removed (or renamed) meanwhile: the lists are read again and the notice says so.
  // The editor closes first: its index may name another entry of the fresh list, or none.
  const onEntry = (list: string, index: number, work: () => Promise<void>) => {
    const entry = lists.data!.lists[list]![index]
    const reload = async () => { setEditing(undefined); await lists.reload() }
    return onListedEntry(`${list} entry ${entry?.name ?? maskKey(entry?.['api-key'] ?? '')}`, reload, work)
  }
  const save = (list: string, index: number, value: Entry) => act(async () => {
    try {
      await onEntry(list, index, () => saveEntry(list, lists.data!.lists[list]!, index, value, identityOf(list)))
    } catch (error) {
      // The list changed meanwhile: show it as it is now. A new entry's form stays to save again; an
      // edit's closes (its index may now name another entry, or none).
      if (error instanceof ListChanged) {
        if (index >= 0) setEditing(undefined)
        await lists.reload()
      }
      throw error
    }
    setEditing(undefined)
    await lists.reload()
  }, index < 0 ? `added to ${list}` : `saved ${list}[${index}]`)
  const remove = (list: string, index: number) => act(() => onEntry(list, index, async () => {
    await del(`/${list}?${entryRef(lists.data!.lists[list]!, index, identityOf(list)).query}`)
    await lists.reload()
    focusMain()
  }), `removed ${list}[${index}]`)
  const test = async (family: Family, id: string) => {
    setTests(t => ({ ...t, [id]: { ok: true, text: 'testing…' } }))
    try {
      // The family's own test call (ProviderDef.testCall), else a listing most upstreams have.
      const call = family['test-call'] ?? { path: '/models' }
      const answer = await post<{ status: number; body: unknown }>('/api-call', { credential: id, method: call.method ?? 'GET', path: call.path })
      const detail = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
      setTests(t => ({ ...t, [id]: { ok: answer.status < 400, text: answer.status < 400 ? `OK: upstream answered ${answer.status}` : `upstream answered ${answer.status}: ${detail.slice(0, 200)}` } }))
    } catch (error) {
      setTests(t => ({ ...t, [id]: { ok: false, text: (error as Error).message } }))
    }
  }
  const testResult = (id: string) => tests[id] && <p class={`notice ${tests[id]!.ok ? 'ok' : 'error'}`} role={tests[id]!.ok ? 'status' : 'alert'} data-test-result={id}>{tests[id]!.text}</p>

  const data = lists.data
  const editor = (family: Family, list: string, entries: Entry[]) => {
    if (editing?.list !== list) return null
    const name = family.family
    if (family.editor === 'named-upstreams') {
      return (
        <UpstreamEditor key={editing.index} prefix={name} busy={busy} title={editing.index < 0 ? `New ${name} provider` : `Edit ${entries[editing.index]?.name}`}
          initial={editing.index < 0 ? emptyUpstream() : upstreamToForm(entries[editing.index]!)}
          onCancel={() => setEditing(undefined)} onSave={(form: UpstreamForm) => save(list, editing.index, formToUpstream(form))} />
      )
    }
    return (
      <KeyEntryEditor key={editing.index} busy={busy} defaultBaseUrl={family['default-base-url']} title={editing.index < 0 ? `New ${name} key` : `Edit ${name} key ${editing.index + 1}`}
        initial={editing.index < 0 ? emptyKeyEntry() : keyEntryToForm(entries[editing.index]!)}
        onCancel={() => setEditing(undefined)} onSave={(form: KeyEntryForm) => save(list, editing.index, formToKeyEntry(form))} />
    )
  }
  return (
    <>
      <h1>Providers</h1>
      <ErrorLine error={lists.error} />
      <NoticeLine notice={notice} />
      {data && <KeyKindChooser families={data.families} onChoose={(family) => {
        setEditing({ list: family['config-key']!, index: -1 })
        requestAnimationFrame(() => document.querySelector(`[data-family-note="${family.family}"]`)?.scrollIntoView({ block: 'start' }))
      }} />}
      {data && data.families.map((family) => {
        const name = family.family
        const list = family['config-key']!
        const entries = data.lists[list] ?? []
        const upstreams = family.editor === 'named-upstreams'
        const idOf = (index: number) => upstreams ? upstreamCredentialId(name, entries[index]!.name, index) : keyEntryCredentialId(name, index)
        return (
          <Section key={name} title={upstreams ? family.label : `${family.label} keys`}
            actions={<button type="button" onClick={() => setEditing({ list, index: -1 })}>{upstreams ? `Add ${name} provider` : `Add ${name} key`}</button>}>
            <p class="muted family-note" data-family-note={name}>{name} speaks the {family['wire-format']} API to {family['default-base-url'] ?? 'the base URL each entry names'}; clients of every format reach its models.</p>
            {editor(family, list, entries)}
            <EntryList entries={entries} empty={upstreams ? `No ${name} providers.` : `No ${name} keys.`}
              describe={entry => upstreams
                ? [entry.name, entry['base-url'], `${(entry['api-key-entries'] ?? []).length} key(s)`, models(entry)]
                : [maskKey(entry['api-key']), entry['base-url'] || family['default-base-url'] || 'no base URL', entry.prefix && `prefix ${entry.prefix}`, models(entry)]}
              onEdit={index => setEditing({ list, index })} onRemove={index => remove(list, index)}
              onTest={index => test(family, idOf(index))} testResult={index => testResult(idOf(index))} />
          </Section>
        )
      })}
    </>
  )
}

const models = (entry: Entry) => {
  const list = (entry.models ?? []) as Entry[]
  return list.length ? list.map(m => m.alias && m.alias !== m.name ? `${m.alias} → ${m.name}` : m.name).join(', ') : ''
}

function EntryList({ entries, empty, describe, onEdit, onRemove, onTest, testResult }: {
  entries: Entry[]; empty: string; describe: (entry: Entry) => unknown[]
  onEdit: (index: number) => void; onRemove: (index: number) => void; onTest: (index: number) => void; testResult: (index: number) => unknown
}) {
  if (!entries.length) return <p class="muted">{empty}</p>
  return (
    <ul class="entries">
      {entries.map((entry, index) => (
        <li key={index} data-entry={entry.name ?? index}>
          <div class="entry-text">{describe(entry).filter(Boolean).map((part, i) => <span key={i}>{String(part)}</span>)}</div>
          <div class="actions">
            <button type="button" class="small" onClick={() => onTest(index)}>Test</button>
            <button type="button" class="small" onClick={() => onEdit(index)}>Edit</button>
            <ConfirmButton label="Remove" onConfirm={() => onRemove(index)} />
          </div>
          {testResult(index) as any}
        </li>
      ))}
    </ul>
  )
}
