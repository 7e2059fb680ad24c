import { ApiError } from './api.ts'

/**
 * A form of single settings (the Routing page) sends only what the operator changed, but decides on
 * the values the page read a while ago: saved from a stale view, a value another tab or operator set
 * meanwhile would be overwritten without anyone seeing it. So the values are read again just before
 * saving and the save refused when any differs (as fresh-list.ts does for lists); the form then shows
 * the values as they are now.
 */
export class ValuesChanged extends ApiError {}

export type FormValues = Record<string, string | boolean>

/** The fields whose value on the server (`now`) is not the one the page read (`seen`). */
export function changedFields<T extends FormValues>(seen: T, now: T): Array<keyof T & string> {
  return Object.keys(now).filter(field => seen[field] !== now[field])
}

/**
 * The form's values once the page has read the server's again: the server's value where the operator
 * had left the field as read or where the server's value changed (the fresh value is shown), the
 * operator's edit elsewhere (not lost for a change made to another field).
 */
export function rebased<T extends FormValues>(values: T, seen: T, now: T): T {
  const next: FormValues = { ...now }
  for (const field of Object.keys(now)) {
    if (values[field] !== seen[field] && seen[field] === now[field]) next[field] = values[field]!
  }
  return next as T
}

/** The refusal of a save made from a stale view, naming what changed. */
export function valuesChanged(fields: string[]): ValuesChanged {
  return new ValuesChanged(`not saved: ${fields.join(', ')} changed since this page read ${fields.length > 1 ? 'them' : 'it'} (another tab or operator). The form shows the values as they are now, your other edits kept: check them and save again`, 409)
}
