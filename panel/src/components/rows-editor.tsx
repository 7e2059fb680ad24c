/** Editable rows of text cells (model name/alias, header name/value): add and remove with buttons. */
export interface Column { key: string; label: string; placeholder?: string }

export function RowsEditor<T extends Record<string, string>>({ legend, columns, rows, onChange, blank, name, addLabel }: {
  legend: string; columns: Column[]; rows: T[]; onChange: (rows: T[]) => void; blank: () => T; name: string; addLabel?: string
}) {
  const set = (i: number, key: string, value: string) => onChange(rows.map((row, j) => j === i ? { ...row, [key]: value } : row))
  return (
    <fieldset class="rows">
      <legend>{legend}</legend>
      {rows.map((row, i) => (
        <div class="row" key={i}>
          {columns.map(column => (
            <input key={column.key} aria-label={`${legend} ${i + 1} ${column.label}`} name={`${name}-${i}-${column.key}`} placeholder={column.placeholder ?? column.label}
              value={row[column.key]} spellcheck={false} onInput={e => set(i, column.key, (e.target as HTMLInputElement).value)} />
          ))}
          <button type="button" class="small" aria-label={`Remove ${legend} ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>Remove</button>
        </div>
      ))}
      <button type="button" class="small" onClick={() => onChange([...rows, blank()])}>{addLabel ?? `Add ${legend.toLowerCase().replace(/s$/, '')}`}</button>
    </fieldset>
  )
}
