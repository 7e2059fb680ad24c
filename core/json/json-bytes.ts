import type { RawStrings } from './raw-strings.ts'
import type { TurnCache } from './turn-cache.ts'
import { longStringBytes } from './body-scan.ts'
import { derivedOf, minDerivedLength, type DerivedNotes } from './derived-strings.ts'
import { isPlain, notPlain, plainCopy } from './plain-json.ts'

/** `JSON.stringify(value)` as UTF-8 bytes, built by parts (README.md): long strings copied as the client spelled them, cached parts copied. */
export function jsonBytes(value: unknown, strings?: RawStrings, parts?: TurnCache, scope = '', notes?: DerivedNotes): Buffer {
  const writer = new Writer(strings?.size ? strings : undefined, parts, scope, notes)
  try {
    write(value, '', writer, 0, undefined, -1)
  } catch (error) {
    // The plain path's error (a cycle named from the top), or its bytes where only this walk failed (`holdsRaw`: a stack overflow).
    const text = JSON.stringify(value)
    if (text === undefined) throw error
    return Buffer.from(text, 'utf8')
  }
  return assemble(writer.pieces, 0)
}

type Piece = string | Buffer // JSON text, or bytes: a client's spelling of a long string, a cached part

class Writer {
  readonly pieces: Piece[] = []
  derived = 0 // derived strings written so far (a part holding one is not kept)
  constructor(readonly strings?: RawStrings, readonly parts?: TurnCache, readonly scope = '', readonly notes?: DerivedNotes) {}
}

const maxRunLength = 32_768 // under V8's 128 KB large-object threshold even at two bytes per character

/** The pieces from `start` on in one Buffer, small ones joined into runs (measured and written one by one they cost more). */
function assemble(pieces: Piece[], start: number): Buffer {
  const runs: Piece[] = []
  let run = ''
  for (let i = start; i < pieces.length; i++) {
    const piece = pieces[i]!
    if (typeof piece === 'string' && run.length + piece.length <= maxRunLength) { run += piece; continue }
    if (run) runs.push(run)
    run = typeof piece === 'string' ? piece : ''
    if (typeof piece !== 'string') runs.push(piece)
  }
  if (run) runs.push(run)
  let size = 0
  for (const run of runs) size += typeof run === 'string' ? Buffer.byteLength(run) : run.length
  const out = Buffer.allocUnsafe(size)
  let at = 0
  for (const run of runs) at += typeof run === 'string' ? out.write(run, at) : run.copy(out, at)
  return out
}

const minRawLength = Math.floor(longStringBytes / 6) // shorter are not looked up: a noted token is at least this long, all `\uXXXX`
const splitDepth = 2 // levels split into parts (the request's keys, their lists' elements); deeper cost more in calls than it saved
const minCachedLength = 256 // parts this large (JSON characters, about) are cached; smaller ones cost less to write than to keep

/** A plain object or array, walked as JSON.stringify would (no toJSON, no class instance). */
const splittable = (value: unknown): value is Record<string, unknown> | unknown[] =>
  !!value && typeof value === 'object' && isPlain(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function'

/** Whether a string of `strings` is in `value` (then its part is split down to it). */
function holdsRaw(value: unknown, writer: Writer): boolean {
  const long = typeof value === 'string' && value.length >= minRawLength
  if (long && value.length >= minDerivedLength && derivedOf(value, writer.notes)) return true
  if (long) return writer.strings!.spelling(value) !== undefined
  if (!value || typeof value !== 'object') return false
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsRaw(value[i], writer)) return true
    return false
  }
  for (const key in value) if (holdsRaw((value as Record<string, unknown>)[key], writer)) return true
  return false
}

/** Writes `value`, found under `key` (toJSON gets it), as pieces; false when it writes nothing. `group`, `index`: its place in the cache. */
function write(value: unknown, key: string | number, writer: Writer, depth: number, group: string | undefined, index: number): boolean {
  const { pieces, strings } = writer
  if (strings && typeof value === 'string' && value.length >= minRawLength) {
    // Derived first: a lookup by value would make V8 flatten a joined data URL to compare it.
    if (value.length >= minDerivedLength && writeDerived(value, writer, strings)) return true
    const raw = strings.spelling(value)
    if (raw) { pieces.push(raw); return true }
  }
  let cached = group && writer.parts && splittable(value) && !(depth === 1 && Array.isArray(value)) ? group : undefined
  let part = value
  if (cached) {
    const bytes = writer.parts!.findWritten(writer.scope, cached, index, value)
    if (bytes) { pieces.push(bytes); return true }
    // The copy is what is written and kept: a getter read twice could leave bytes that do not spell it (README.md).
    part = plainCopy(value)
    if (part === notPlain) [part, cached] = [value, undefined]
  }
  const start = pieces.length
  const derived = writer.derived
  if (!splittable(part) || (depth >= splitDepth && !(strings && holdsRaw(part, writer)))) {
    const text = stringify(part, key)
    if (text === undefined) return false
    pieces.push(text)
  } else if (Array.isArray(part)) {
    pieces.push('[')
    for (let i = 0; i < part.length; i++) {
      if (i) pieces.push(',')
      if (!write(part[i], i, writer, depth + 1, depth === 1 ? group : undefined, i)) pieces.push('null')
    }
    pieces.push(']')
  } else {
    pieces.push('{')
    let first = true
    // For-in with an own-key check: JSON.stringify's key order, no array per object.
    for (const key in part) {
      if (!Object.hasOwn(part, key)) continue
      const at = pieces.length
      pieces.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`)
      if (write(part[key], key, writer, depth + 1, depth === 0 ? key : undefined, -1)) first = false
      else pieces.length = at
    }
    pieces.push('}')
  }
  // A part holding a derived string is not kept: comparing it next turn would flatten both (~1 ms an image).
  if (!cached || writer.derived !== derived) return true
  let length = 0
  for (let i = start; i < pieces.length; i++) length += pieces[i]!.length
  if (length >= minCachedLength) {
    const bytes = assemble(pieces, start)
    pieces.length = start
    pieces.push(bytes)
    writer.parts!.keepWritten(writer.scope, cached, index, part, bytes)
  }
  return true
}

/** JSON.stringify(value) under `key`: its toJSON (an object's, a function's, a BigInt's) is called with the key, cut off after. */
function stringify(value: unknown, key: string | number): string | undefined {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function' && typeof value !== 'bigint')) return JSON.stringify(value)
  if (typeof (value as { toJSON?: unknown }).toJSON !== 'function') return JSON.stringify(value)
  const name = String(key)
  const text = JSON.stringify({ [name]: value })
  return text === '{}' ? undefined : text.slice(JSON.stringify(name).length + 2, -1)
}

/** A data URL or its base64 a codec made (derived-strings.ts), written from the client's spelling if it can be. */
function writeDerived(value: string, writer: Writer, strings: RawStrings): boolean {
  const derived = derivedOf(value, writer.notes)
  if (!derived) return false
  let rest = derived.kind === 'slice' ? spelledFrom(strings, derived.whole, derived.from) : spelledFrom(strings, derived.tail, 0)
  if (!rest && derived.kind === 'join' && derived.tail.length >= minDerivedLength) {
    const tail = derivedOf(derived.tail, writer.notes) // a base64 cut from a client's data URL, joined again
    if (tail?.kind === 'slice') rest = spelledFrom(strings, tail.whole, tail.from)
  }
  if (!rest) return false
  writer.pieces.push(derived.kind === 'join' ? JSON.stringify(derived.head).slice(0, -1) : '"', rest)
  writer.derived++
  return true
}

const oneByteEach = /^[^\\\x80-\xff]*$/ // bytes each of which is one character of the string: no escape, no UTF-8 sequence

/** A noted string's spelling from character `from` on (closing quote included), where each character before it is one byte. */
function spelledFrom(strings: RawStrings, whole: string, from: number): Buffer | undefined {
  const spelling = strings.spelling(whole)
  if (!spelling) return undefined
  const head = spelling.toString('latin1', 1, 1 + from)
  // Equal as latin1 is not one byte per character: `\\\\` reads as two backslashes, and the byte C3 as the `Ã` of C3 83.
  return spelling.length >= from + 2 && head === whole.slice(0, from) && oneByteEach.test(head) ? spelling.subarray(1 + from) : undefined
}
