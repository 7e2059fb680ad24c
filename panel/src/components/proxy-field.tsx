import type { ProxyMode } from '../entries.ts'
import { SelectField, TextField } from './field.tsx'

/** An entry's outbound proxy: the global one, none, or its own URL. */
export function ProxyField({ mode, url, onChange, name }: { mode: ProxyMode; url: string; onChange: (mode: ProxyMode, url: string) => void; name: string }) {
  return (
    <div class="proxy-field">
      <SelectField label="Proxy" name={`${name}-proxy-mode`} value={mode} onChange={value => onChange(value as ProxyMode, url)}
        options={[['global', 'Global proxy-url'], ['direct', 'Direct (no proxy)'], ['custom', 'Own proxy URL']]} />
      {mode === 'custom' && <TextField label="Proxy URL" name={`${name}-proxy-url`} value={url} placeholder="socks5://host:1080" onInput={value => onChange(mode, value)} />}
    </div>
  )
}
