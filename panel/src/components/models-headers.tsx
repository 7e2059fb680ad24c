import type { ModelRow, Pair } from '../entries.ts'
import { RowsEditor } from './rows-editor.tsx'

/** The rows every provider entry has: models with their aliases, and extra headers. Field names start with `prefix`. */
export function ModelsAndHeaders({ prefix, models, headers, onChange }: { prefix: string; models: ModelRow[]; headers: Pair[]; onChange: (patch: { models?: ModelRow[]; headers?: Pair[] }) => void }) {
  return (
    <>
      <RowsEditor legend="Models" name={`${prefix}model`} columns={[{ key: 'name', label: 'Upstream name' }, { key: 'alias', label: 'Alias for clients' }]}
        rows={models} blank={() => ({ name: '', alias: '' })} onChange={rows => onChange({ models: rows })} />
      <RowsEditor legend="Headers" name={`${prefix}header`} columns={[{ key: 'name', label: 'Header' }, { key: 'value', label: 'Value' }]}
        rows={headers} blank={() => ({ name: '', value: '' })} onChange={rows => onChange({ headers: rows })} />
    </>
  )
}
