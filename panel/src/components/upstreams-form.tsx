import { useState } from 'preact/hooks'
import type { UpstreamForm, UpstreamKeyForm } from '../entries.ts'
import { TextField } from './field.tsx'
import { ModelsAndHeaders } from './models-headers.tsx'
import { ProxyField } from './proxy-field.tsx'

/** One named upstream of a family (editor `named-upstreams`): name, base URL, keys, models and aliases, and the rest. Field names start with `prefix`. */
export function UpstreamEditor({ prefix, initial, title, busy, onSave, onCancel }: { prefix: string; initial: UpstreamForm; title: string; busy: boolean; onSave: (form: UpstreamForm) => void; onCancel: () => void }) {
  const [form, setForm] = useState(initial)
  const set = (patch: Partial<UpstreamForm>) => setForm({ ...form, ...patch })
  const setKey = (i: number, patch: Partial<UpstreamKeyForm>) => set({ keys: form.keys.map((key, j) => j === i ? { ...key, ...patch } : key) })
  return (
    <form class="editor" aria-label={title} onSubmit={(e) => { e.preventDefault(); onSave(form) }}>
      <h3>{title}</h3>
      <div class="grid">
        <TextField label="Name" name={`${prefix}-name`} value={form.name} onInput={name => set({ name })} required />
        <TextField label="Base URL" name={`${prefix}-base-url`} value={form.baseUrl} placeholder="https://host/v1" onInput={baseUrl => set({ baseUrl })} required hint="Ends in /v1." />
        <TextField label="Prefix" name={`${prefix}-prefix`} value={form.prefix} onInput={prefix => set({ prefix })} />
        <TextField label="Priority" name={`${prefix}-priority`} value={form.priority} onInput={priority => set({ priority })} />
        <TextField label="Excluded models" name={`${prefix}-excluded`} value={form.excluded} placeholder="*-preview" onInput={excluded => set({ excluded })} hint="Comma separated; * wildcards." />
      </div>
      <fieldset class="rows">
        <legend>API keys</legend>
        {form.keys.map((key, i) => (
          <div class="row keyrow" key={i}>
            <TextField label={`Key ${i + 1}`} name={`${prefix}-key-${i}`} type="password" value={key.apiKey} onInput={apiKey => setKey(i, { apiKey })} />
            <ProxyField name={`${prefix}-key-${i}`} mode={key.proxyMode} url={key.proxyUrl} onChange={(proxyMode, proxyUrl) => setKey(i, { proxyMode, proxyUrl })} />
            <button type="button" class="small" aria-label={`Remove key ${i + 1}`} onClick={() => set({ keys: form.keys.filter((_, j) => j !== i) })}>Remove</button>
          </div>
        ))}
        <button type="button" class="small" onClick={() => set({ keys: [...form.keys, { apiKey: '', proxyMode: 'global', proxyUrl: '' }] })}>Add key</button>
      </fieldset>
      <ModelsAndHeaders prefix={`${prefix}-`} models={form.models} headers={form.headers} onChange={set} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>Save</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
