import { useState } from 'preact/hooks'
import { del, get, patch, post, put } from '../api.ts'
import { useAction, useLoad } from '../hooks.ts'
import {
  compatCredentialId, compatToForm, emptyCompat, emptyKeyEntry, formToCompat, formToKeyEntry, keyEntryCredentialId, keyEntryToForm,
  maskKey, needsReplace, testPaths, type CompatForm, type KeyEntryForm,
} from '../entries.ts'
import { Section } from '../components/field.tsx'
import { ErrorLine, NoticeLine } from '../components/notice.tsx'
import { ConfirmButton } from '../components/confirm-button.tsx'
import { KeyEntryEditor } from '../components/key-entry-form.tsx'
import { CompatEditor } from '../components/compat-form.tsx'

type Entry = Record<string, any>
const families = [['alpha', 'alpha (generateContent)'], ['beta', 'beta (messages)'], ['gamma', 'gamma (responses)'], ['delta', 'delta (cloud platform)']] as const
type ListKey = `${typeof families[number][0]}-api-key` | 'compat-provider'
type Lists = Record<ListKey, Entry[]>
interface Editing { list: ListKey; index: number }

async function loadLists(): Promise<Lists> {
  const keys: ListKey[] = [...families.map(([f]) => `${f}-api-key` as ListKey), 'compat-provider']
  const answers = await Promise.all(keys.map(key => get<Record<string, Entry[]>>(`/${key}`)))
  return Object.fromEntries(keys.map((key, i) => [key, answers[i]![key] ?? []])) as Lists
}

/** Save one entry: new ones by replacing the list (there is no append call), edits in place with PATCH. */
async function saveEntry(list: ListKey, entries: Entry[], index: number, value: Entry): Promise<void> {
  if (index < 0) return void await put(`/${list}`, [...entries, value])
  if (needsReplace(entries[index]!, value)) return void await put(`/${list}`, entries.map((entry, i) => i === index ? value : entry))
  await patch(`/${list}`, { index, value })
}

/** Provider keys of every family and compat providers: add, edit, remove, and test with one click. */
export function Providers() {
  const lists = useLoad(loadLists)
  const [editing, setEditing] = useState<Editing>()
  const { notice, busy, act } = useAction()
  const [tests, setTests] = useState<Record<string, { ok: boolean; text: string }>>({})

  const save = (list: ListKey, index: number, value: Entry) => act(async () => {
    await saveEntry(list, lists.data![list], index, value)
    setEditing(undefined)
    await lists.reload()
  }, index < 0 ? `added to ${list}` : `saved ${list}[${index}]`)
  const remove = (list: ListKey, index: number) => act(async () => {
    await del(`/${list}?index=${index}`)
    await lists.reload()
  }, `removed ${list}[${index}]`)
  const test = async (family: string, id: string) => {
    setTests(t => ({ ...t, [id]: { ok: true, text: 'testing…' } }))
    try {
      const answer = await post<{ status: number; body: unknown }>('/api-call', { credential: id, method: 'GET', path: testPaths[family] ?? '/models' })
      const detail = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
      setTests(t => ({ ...t, [id]: { ok: answer.status < 400, text: answer.status < 400 ? `OK: upstream answered ${answer.status}` : `upstream answered ${answer.status}: ${detail.slice(0, 200)}` } }))
    } catch (error) {
      setTests(t => ({ ...t, [id]: { ok: false, text: (error as Error).message } }))
    }
  }
  const testResult = (id: string) => tests[id] && <p class={`notice ${tests[id]!.ok ? 'ok' : 'error'}`} role={tests[id]!.ok ? 'status' : 'alert'} data-test-result={id}>{tests[id]!.text}</p>

  const data = lists.data
  return (
    <>
      <h1>Providers</h1>
      <ErrorLine error={lists.error} />
      <NoticeLine notice={notice} />
      {data && (
        <>
          <Section title="Compat providers (OpenAI-compatible)" actions={<button type="button" onClick={() => setEditing({ list: 'compat-provider', index: -1 })}>Add compat provider</button>}>
            {editing?.list === 'compat-provider' && (
              <CompatEditor key={editing.index} busy={busy} title={editing.index < 0 ? 'New compat provider' : `Edit ${data['compat-provider'][editing.index]?.name}`}
                initial={editing.index < 0 ? emptyCompat() : compatToForm(data['compat-provider'][editing.index]!)}
                onCancel={() => setEditing(undefined)} onSave={(form: CompatForm) => save('compat-provider', editing.index, formToCompat(form))} />
            )}
            <EntryList entries={data['compat-provider']} empty="No compat providers."
              describe={entry => [entry.name, entry['base-url'], `${(entry['api-key-entries'] ?? []).length} key(s)`, models(entry)]}
              onEdit={index => setEditing({ list: 'compat-provider', index })} onRemove={index => remove('compat-provider', index)}
              onTest={index => test('compat', compatCredentialId(data['compat-provider'][index]!.name, index))}
              testResult={index => testResult(compatCredentialId(data['compat-provider'][index]!.name, index))} />
          </Section>
          {families.map(([family, label]) => {
            const list = `${family}-api-key` as ListKey
            return (
              <Section key={family} title={`${label} keys`} actions={<button type="button" onClick={() => setEditing({ list, index: -1 })}>Add {family} key</button>}>
                {editing?.list === list && (
                  <KeyEntryEditor key={editing.index} busy={busy} title={editing.index < 0 ? `New ${family} key` : `Edit ${family} key ${editing.index + 1}`}
                    initial={editing.index < 0 ? emptyKeyEntry() : keyEntryToForm(data[list][editing.index]!)}
                    onCancel={() => setEditing(undefined)} onSave={(form: KeyEntryForm) => save(list, editing.index, formToKeyEntry(form))} />
                )}
                <EntryList entries={data[list]} empty={`No ${family} keys.`}
                  describe={entry => [maskKey(entry['api-key']), entry['base-url'] || 'default base URL', entry.prefix && `prefix ${entry.prefix}`, models(entry)]}
                  onEdit={index => setEditing({ list, index })} onRemove={index => remove(list, index)}
                  onTest={index => test(family, keyEntryCredentialId(family, index))} testResult={index => testResult(keyEntryCredentialId(family, index))} />
              </Section>
            )
          })}
        </>
      )}
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
