import type { ComponentChildren } from 'preact'

let counter = 0
const nextId = () => `f${++counter}`

interface TextFieldProps {
  label: string
  value: string
  onInput: (value: string) => void
  type?: string
  placeholder?: string
  hint?: string
  required?: boolean
  name?: string
  autoComplete?: string
}

/** A labelled input: the label is a real <label for>, so clicking it and screen readers work. */
export function TextField(props: TextFieldProps) {
  const id = props.name ? `field-${props.name}` : nextId()
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input id={id} name={props.name} type={(props.type ?? 'text') as 'text'} value={props.value} placeholder={props.placeholder} required={props.required}
        autoComplete={props.autoComplete ?? 'off'} spellcheck={false} onInput={e => props.onInput((e.target as HTMLInputElement).value)} />
      {props.hint && <small class="muted">{props.hint}</small>}
    </div>
  )
}

/** A labelled select. Options stay short (a select cannot wrap its text); `hint` explains the one chosen. */
export function SelectField({ label, value, options, onChange, name, hint }: { label: string; value: string; options: Array<[string, string]>; onChange: (value: string) => void; name?: string; hint?: string }) {
  const id = name ? `field-${name}` : nextId()
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name} value={value} onChange={e => onChange((e.target as HTMLSelectElement).value)}>
        {options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
      </select>
      {hint && <small class="muted">{hint}</small>}
    </div>
  )
}

export function CheckField({ label, checked, onChange, name }: { label: string; checked: boolean; onChange: (value: boolean) => void; name?: string }) {
  const id = name ? `field-${name}` : nextId()
  return (
    <div class="field check">
      <input id={id} name={name} type="checkbox" checked={checked} onChange={e => onChange((e.target as HTMLInputElement).checked)} />
      <label for={id}>{label}</label>
    </div>
  )
}

export function Section({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="card">
      <div class="card-head"><h2>{title}</h2>{actions && <div class="actions">{actions}</div>}</div>
      {children}
    </section>
  )
}
