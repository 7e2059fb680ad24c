import { useState } from 'preact/hooks'
import { SelectField, TextField } from './field.tsx'

/** The rules of a named key as the form edits them (text fields: empty = no limit). */
export interface KeyRulesDraft { owner: string; models: string; rpm: string; tpm: string; usd: string; period: string; expires: string }

export const emptyRules: KeyRulesDraft = { owner: '', models: '', rpm: '', tpm: '', usd: '', period: 'month', expires: '' }

const numberOrNull = (text: string) => text.trim() === '' ? null : Number(text)

/** Draft -> the API's fields; `null` removes a rule (PATCH), and is left out when creating. */
export function rulesBody(draft: KeyRulesDraft): Record<string, unknown> {
  const models = draft.models.split(',').map(model => model.trim()).filter(Boolean)
  return {
    owner: draft.owner.trim() || null,
    models: models.length ? models : null,
    rpm: numberOrNull(draft.rpm),
    tpm: numberOrNull(draft.tpm),
    budget: draft.usd.trim() === '' ? null : { usd: Number(draft.usd), period: draft.period },
    expires: draft.expires.trim() || null,
  }
}

/** The fields of a key's rules: owner, models, rpm, tpm, budget and its period, expiry. */
export function KeyRulesFields({ draft, onChange, prefix }: { draft: KeyRulesDraft; onChange: (draft: KeyRulesDraft) => void; prefix: string }) {
  const set = (field: keyof KeyRulesDraft) => (value: string) => onChange({ ...draft, [field]: value })
  return (
    <>
      <TextField label="Owner" name={`${prefix}-owner`} value={draft.owner} onInput={set('owner')} placeholder="alice@team" />
      <TextField label="Models" name={`${prefix}-models`} value={draft.models} onInput={set('models')} placeholder="gpt-*, claude-*" hint="comma-separated patterns; empty = every model" />
      <TextField label="Requests / minute" name={`${prefix}-rpm`} type="number" value={draft.rpm} onInput={set('rpm')} />
      <TextField label="Tokens / minute" name={`${prefix}-tpm`} type="number" value={draft.tpm} onInput={set('tpm')} />
      <TextField label="Budget (USD)" name={`${prefix}-usd`} type="number" value={draft.usd} onInput={set('usd')} />
      <SelectField label="Budget period" name={`${prefix}-period`} value={draft.period} onChange={set('period')} options={[['day', 'day'], ['week', 'week'], ['month', 'month'], ['total', 'total']]} />
      <TextField label="Expires" name={`${prefix}-expires`} type="date" value={draft.expires} onInput={set('expires')} />
    </>
  )
}

/** A form for a new key: its name and rules. */
export function NewKeyForm({ busy, onCreate }: { busy: boolean; onCreate: (body: Record<string, unknown>) => Promise<boolean> }) {
  const [name, setName] = useState('')
  const [draft, setDraft] = useState(emptyRules)
  const submit = (event: Event) => {
    event.preventDefault()
    const body = Object.fromEntries(Object.entries({ name: name.trim(), ...rulesBody(draft) }).filter(([, value]) => value !== null))
    void onCreate(body).then((ok) => { if (ok) { setName(''); setDraft(emptyRules) } })
  }
  return (
    <form class="inline-form" onSubmit={submit}>
      <TextField label="Name" name="named-key-name" value={name} onInput={setName} required placeholder="ci-runner" />
      <KeyRulesFields draft={draft} onChange={setDraft} prefix="named-key" />
      <button type="submit" class="primary" disabled={busy || !name.trim()}>Create key</button>
    </form>
  )
}
