/** Long strings a codec made from a client's (a data URL joined, its base64 cut out): the writer copies the client's spelling (README.md). */
export type DerivedString = { kind: 'join'; head: string; tail: string } | { kind: 'slice'; whole: string; from: number }

/** The derived strings a body was written with (json-body.ts): written again for the recorder, the ring may have moved on. */
export type DerivedNotes = Array<{ value: string; derived: DerivedString }>

/** Shorter strings cost less to write again than to look up. */
export const minDerivedLength = 16 * 1024

const ring: DerivedNotes = [] // the last 16: a body is written right after it is encoded

function note(value: string, derived: DerivedString): string {
  if (value.length >= minDerivedLength && ring.push({ value, derived }) > 16) ring.shift()
  return value
}

/** `head + tail`, noted (a short head: a data URL's header). */
export const joined = (head: string, tail: string): string => note(head + tail, { kind: 'join', head, tail })

/** `whole.slice(from)`, noted (the payload of a data URL). */
export const sliced = (whole: string, from: number): string => note(whole.slice(from), { kind: 'slice', whole, from })

/** How `value` was made: noted in `notes`, else in the ring (then noted in `notes`). */
export function derivedOf(value: string, notes?: DerivedNotes): DerivedString | undefined {
  const noted = notes && lastOf(notes, value)
  if (noted) return noted
  const derived = lastOf(ring, value)
  if (derived && notes) notes.push({ value, derived })
  return derived
}

/** The newest entry for `value`; lengths compared before `===` (which may flatten). */
function lastOf(list: DerivedNotes, value: string): DerivedString | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.value.length === value.length && list[i]!.value === value) return list[i]!.derived
  return undefined
}
