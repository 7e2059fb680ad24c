/**
 * Long strings the codecs made from others without reading them: a data URL joined from its header and a
 * client's base64 (`data:image/png;base64,` + data), or the base64 cut out of a client's data URL. The
 * writer of a translated body (core/json/json-bytes.ts) asks here about a long string it cannot copy as
 * it is (core/json/raw-strings.ts), and copies the client's spelling of the part it came from instead.
 *
 * Why: V8 reads the characters of a joined string only after copying it into one new string (a 1.5 MB
 * image: ~0.8 ms here, most of it page faults in the large-object space), and JSON.stringify of 1.5 MB
 * costs ~1.4 ms more. A translated request carrying one screenshot spent ~3.5 ms on that per image (4.5 ms
 * against 0.9 for an upstream that takes the base64 as it is); its next turn ~1 ms.
 *
 * Strings are matched by identity (`===` on the string the codec returned: the same object, unless a
 * hook put another in its place, which is then simply written anew). The last few are kept in a ring:
 * a translated request is written right after it is encoded, so the ring only needs to span the
 * requests encoded in between.
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

/**
 * How `value` was made, if it was noted here recently. Newest first: the string a body is written with
 * was usually noted last. Lengths first: `===` between two equally long strings that are not the same
 * object compares their characters (after copying a joined one whole); an older string equal to this
 * one is as good, only slower to find.
 */
export function derivedOf(value: string): DerivedString | undefined {
  for (let back = 1; back <= ring.length; back++) {
    const entry = ring[(next - back + ring.length) % ring.length]
    if (entry && entry.value.length === value.length && entry.value === value) return entry.derived
  }
  return undefined
}
