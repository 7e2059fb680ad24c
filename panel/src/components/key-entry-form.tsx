import { useState } from 'preact/hooks'
import type { KeyEntryForm } from '../entries.ts'
import { TextField } from './field.tsx'
import { ModelsAndHeaders } from './models-headers.tsx'
import { ProxyField } from './proxy-field.tsx'

/** One `<family>-api-key` entry: key, base URL, prefix, priority, models and aliases, exclusions, headers, proxy. */
export function KeyEntryEditor({ initial, title, busy, defaultBaseUrl, onSave, onCancel }: { initial: KeyEntryForm; title: string; busy: boolean; defaultBaseUrl?: string | null; onSave: (form: KeyEntryForm) => void; onCancel: () => void }) {
  const [form, setForm] = useState(initial)
  const set = (patch: Partial<KeyEntryForm>) => setForm({ ...form, ...patch })
  return (
    <form class="editor" aria-label={title} onSubmit={(e) => { e.preventDefault(); onSave(form) }}>
      <h3>{title}</h3>
      <div class="grid">
        <TextField label="API key" name="api-key" type="password" value={form.apiKey} onInput={apiKey => set({ apiKey })} required />
        <TextField label="Base URL" name="base-url" value={form.baseUrl} placeholder={defaultBaseUrl ?? ''} onInput={baseUrl => set({ baseUrl })} hint={defaultBaseUrl ? `Empty: ${defaultBaseUrl}` : undefined} />
        <TextField label="Prefix" name="prefix" value={form.prefix} placeholder="e.g. team-a" onInput={prefix => set({ prefix })} />
        <TextField label="Priority" name="priority" value={form.priority} onInput={priority => set({ priority })} hint="Higher is picked first." />
        <TextField label="Excluded models" name="excluded-models" value={form.excluded} placeholder="claude-*, *-mini" onInput={excluded => set({ excluded })} hint="Comma separated; * wildcards." />
        <ProxyField name="entry" mode={form.proxyMode} url={form.proxyUrl} onChange={(proxyMode, proxyUrl) => set({ proxyMode, proxyUrl })} />
      </div>
      <ModelsAndHeaders prefix={''} models={form.models} headers={form.headers} onChange={set} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>Save</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
