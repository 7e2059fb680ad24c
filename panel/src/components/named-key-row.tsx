import { useState } from 'preact/hooks'
import { ConfirmButton } from './confirm-button.tsx'
import { KeyRulesFields, rulesBody, type KeyRulesDraft } from './named-key-form.tsx'

/** A key as `GET /client-keys` lists it (never the key itself). */
export interface NamedKey {
  name: string; owner?: string; key_hash: string; models: string[]; rpm?: number; tpm?: number; expires?: string; disabled: boolean; state: string
  budget?: { usd: number; period: string; spent_usd: number; remaining_usd: number; resets_at?: string }
  usage: { minute: { requests: number; tokens: number }; spent_usd: Record<string, number> }
}
export interface Recent { time: number; model: string; status: number; inputTokens: number; outputTokens: number; costUsd: number; estimated?: true }

const usd = (value: number) => `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`

const draftOf = (entry: NamedKey): KeyRulesDraft => ({
  owner: entry.owner ?? '', models: entry.models.join(', '), rpm: entry.rpm?.toString() ?? '', tpm: entry.tpm?.toString() ?? '',
  usd: entry.budget?.usd.toString() ?? '', period: entry.budget?.period ?? 'month', expires: entry.expires ?? '',
})

/** One named key: its rules, spend against budget, and actions (edit limits, disable, rotate, recent requests, remove). */
export function NamedKeyRow({ entry, busy, onChange, onRemove, onRecent }: {
  entry: NamedKey; busy: boolean; onChange: (body: Record<string, unknown>, done: string) => Promise<boolean>; onRemove: () => void
  /** The key's recent requests; undefined when they could not be read (the page says why). */
  onRecent: () => Promise<Recent[] | undefined>
}) {
  const [editing, setEditing] = useState<KeyRulesDraft>()
  const [recent, setRecent] = useState<Recent[]>()
  const limits = [entry.rpm && `${entry.rpm} req/min`, entry.tpm && `${entry.tpm} tokens/min`, entry.models.length && `models: ${entry.models.join(', ')}`].filter(Boolean).join(' · ')
  const budget = entry.budget
  return (
    <li data-named-key={entry.name} data-state={entry.state}>
      <div>
        <strong>{entry.name}</strong> {entry.owner && <span class="muted">({entry.owner})</span>} <span class="badge">{entry.state}</span>
        <div class="muted"><code>{entry.key_hash}</code> {limits || 'no rate limits'}{entry.expires && ` · expires ${entry.expires}`}</div>
        {budget ? (
          <div data-spend>
            <meter min={0} max={budget.usd} value={budget.spent_usd} /> {usd(budget.spent_usd)} of {usd(budget.usd)} this {budget.period === 'total' ? 'key\'s life' : budget.period} · {usd(budget.remaining_usd)} left
          </div>
        ) : <div class="muted" data-spend>spent {usd(entry.usage.spent_usd.month ?? 0)} this month, no budget</div>}
      </div>
      <div class="actions">
        <button type="button" class="small" onClick={() => setEditing(editing ? undefined : draftOf(entry))}>Limits</button>
        <button type="button" class="small" onClick={() => { void onChange({ disabled: !entry.disabled }, entry.disabled ? 'key enabled' : 'key disabled') }}>{entry.disabled ? 'Enable' : 'Disable'}</button>
        <button type="button" class="small" onClick={() => { void onRecent().then(found => found && setRecent(found)) }}>Recent requests</button>
        <ConfirmButton label="Rotate" onConfirm={() => { void onChange({ rotate: true }, 'key rotated') }} />
        <ConfirmButton label="Remove" onConfirm={onRemove} />
      </div>
      {editing && (
        <form class="inline-form" onSubmit={(event) => { event.preventDefault(); void onChange(rulesBody(editing), 'limits saved').then(ok => ok && setEditing(undefined)) }}>
          <KeyRulesFields draft={editing} onChange={setEditing} prefix={`edit-${entry.name}`} />
          <button type="submit" class="primary" disabled={busy}>Save limits</button>
        </form>
      )}
      {recent && (
        <table class="stack" data-recent>
          <thead><tr><th>time</th><th>model</th><th>status</th><th>tokens in / out</th><th>cost</th></tr></thead>
          <tbody>
            {!recent.length && <tr><td colSpan={5} class="muted">no requests on this instance yet</td></tr>}
            {recent.map(r => <tr key={r.time}><td data-label="time">{new Date(r.time).toLocaleTimeString()}</td><td data-label="model">{r.model}</td><td data-label="status">{r.status}</td><td data-label="tokens in / out">{r.inputTokens} / {r.outputTokens}{r.estimated && <span class="muted" data-estimated title="the upstream reported no usage, or the answer was cut"> (estimated)</span>}</td><td data-label="cost">{usd(r.costUsd)}</td></tr>)}
          </tbody>
        </table>
      )}
    </li>
  )
}
