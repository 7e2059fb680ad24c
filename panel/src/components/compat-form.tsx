import { useState } from 'preact/hooks'
import type { CompatForm, CompatKeyForm } from '../entries.ts'
import { TextField } from './field.tsx'
import { RowsEditor } from './rows-editor.tsx'
import { ProxyField } from './proxy-field.tsx'

/** One `compat-provider` (an OpenAI-compatible upstream): name, base URL, keys, models and aliases, and the rest. */
export function CompatEditor({ initial, title, busy, onSave, onCancel }: { initial: CompatForm; title: string; busy: boolean; onSave: (form: CompatForm) => void; onCancel: () => void }) {
  const [form, setForm] = useState(initial)
  const set = (patch: Partial<CompatForm>) => setForm({ ...form, ...patch })
  const setKey = (i: number, patch: Partial<CompatKeyForm>) => set({ keys: form.keys.map((key, j) => j === i ? { ...key, ...patch } : key) })
  return (
    <form class="editor" aria-label={title} onSubmit={(e) => { e.preventDefault(); onSave(form) }}>
      <h3>{title}</h3>
      <div class="grid">
        <TextField label="Name" name="compat-name" value={form.name} onInput={name => set({ name })} required />
        <TextField label="Base URL" name="compat-base-url" value={form.baseUrl} placeholder="https://host/v1" onInput={baseUrl => set({ baseUrl })} required hint="Ends in /v1." />
        <TextField label="Prefix" name="compat-prefix" value={form.prefix} onInput={prefix => set({ prefix })} />
        <TextField label="Priority" name="compat-priority" value={form.priority} onInput={priority => set({ priority })} />
        <TextField label="Excluded models" name="compat-excluded" value={form.excluded} placeholder="*-preview" onInput={excluded => set({ excluded })} hint="Comma separated; * wildcards." />
      </div>
      <fieldset class="rows">
        <legend>API keys</legend>
        {form.keys.map((key, i) => (
          <div class="row keyrow" key={i}>
            <TextField label={`Key ${i + 1}`} name={`compat-key-${i}`} type="password" value={key.apiKey} onInput={apiKey => setKey(i, { apiKey })} />
            <ProxyField name={`compat-key-${i}`} mode={key.proxyMode} url={key.proxyUrl} onChange={(proxyMode, proxyUrl) => setKey(i, { proxyMode, proxyUrl })} />
            <button type="button" class="small" aria-label={`Remove key ${i + 1}`} onClick={() => set({ keys: form.keys.filter((_, j) => j !== i) })}>Remove</button>
          </div>
        ))}
        <button type="button" class="small" onClick={() => set({ keys: [...form.keys, { apiKey: '', proxyMode: 'global', proxyUrl: '' }] })}>Add key</button>
      </fieldset>
      <RowsEditor legend="Models" name="compat-model" columns={[{ key: 'name', label: 'Upstream name' }, { key: 'alias', label: 'Alias for clients' }]}
        rows={form.models} blank={() => ({ name: '', alias: '' })} onChange={models => set({ models })} />
      <RowsEditor legend="Headers" name="compat-header" columns={[{ key: 'name', label: 'Header' }, { key: 'value', label: 'Value' }]}
        rows={form.headers} blank={() => ({ name: '', value: '' })} onChange={headers => set({ headers })} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>Save</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
