/**
 * Long strings a codec made from a client's (a data URL joined, its base64 cut out), so the writer copies the
 * client's spelling instead of escaping 1.5 MB (README.md). A ring of the last 16: a body is written right after it is encoded.
 */
export type DerivedString =
  | { kind: 'join'; head: string; tail: string }
  | { kind: 'slice'; whole: string; from: number }

/** Shorter strings cost less to write again than to look up. */
export const minDerivedLength = 16 * 1024

const ring: Array<{ value: string; derived: DerivedString } | undefined> = new Array(16)
let next = 0

function note(value: string, derived: DerivedString): string {
  if (value.length < minDerivedLength) return value
  ring[next] = { value, derived }
  next = (next + 1) % ring.length
  return value
}

/** `head + tail`, noted (a short head: a data URL's header). */
export const joined = (head: string, tail: string): string => note(head + tail, { kind: 'join', head, tail })

/** `whole.slice(from)`, noted (the payload of a data URL). */
export const sliced = (whole: string, from: number): string => note(whole.slice(from), { kind: 'slice', whole, from })

/** How `value` was made, if noted recently; lengths compared before `===` (which may flatten). */
export function derivedOf(value: string): DerivedString | undefined {
  for (let back = 1; back <= ring.length; back++) {
    const entry = ring[(next - back + ring.length) % ring.length]
    if (entry && entry.value.length === value.length && entry.value === value) return entry.derived
  }
  return undefined
}
