import type { RawStrings } from './raw-strings.ts'
import type { TurnCache } from './turn-cache.ts'
import { longStringBytes } from './body-scan.ts'
import { derivedOf, minDerivedLength, type DerivedString } from './derived-strings.ts'
import { notPlain, plainCopy } from './plain-json.ts'

/**
 * `JSON.stringify(value)` as UTF-8 bytes, built part by part: one string of an 80-150 KB body lands in V8's large-object
 * space (README.md). Long strings are copied as the client spelled them, parts written for the key's last turns copied.
 */
export function jsonBytes(value: unknown, strings?: RawStrings, parts?: TurnCache, scope = '', notes?: DerivedNotes): Buffer {
  const writer: Writer = { pieces: [], strings: strings?.size ? strings : undefined, parts, scope, derived: 0, notes }
  try {
    write(value, '', writer, 0, parts ? '' : undefined, -1)
  } catch (error) {
    // What the plain path throws (a cycle named from the top, not from the part that met it), or its bytes where only
    // this walk failed (`holdsRaw` has no cycle check: a stack overflow).
    const text = JSON.stringify(value)
    if (text === undefined) throw error
    return Buffer.from(text, 'utf8')
  }
  return assemble(writer.pieces, writer.strings)
}

/** Measured, then written straight into one Buffer. */
function assemble(pieces: Piece[], strings: RawStrings | undefined): Buffer {
  const runs = joinRuns(pieces)
  let size = 0
  for (const run of runs) size += typeof run === 'string' ? Buffer.byteLength(run) : typeof run === 'number' ? strings!.byteLength(run) : run.length
  const out = Buffer.allocUnsafe(size)
  let at = 0
  for (const run of runs) at += typeof run === 'string' ? out.write(run, at) : typeof run === 'number' ? strings!.copy(run, out, at) : run.copy(out, at)
  return out
}

/** JSON text, a string of `strings` by its index (copied from the client's bytes), or bytes (a cached part). */
type Piece = string | number | Buffer

interface Writer {
  pieces: Piece[]
  strings: RawStrings | undefined
  parts: TurnCache | undefined
  scope: string // the client key: another key's parts are never used
  derived: number // derived strings written so far (a part holding one is not kept)
  notes: DerivedNotes | undefined
}

/**
 * The derived strings a body was written with, kept by its JsonBody: written again (after `forgetWritten`, for the flight
 * recorder), the bytes must be those sent, and by then other requests may have pushed them out of the ring.
 */
export type DerivedNotes = Array<{ value: string; derived: DerivedString }>

/** How `value` was made: the body's own notes, else the ring (then noted); lengths compared before `===` (which may flatten). */
function derivedFor(value: string, writer: Writer): DerivedString | undefined {
  const notes = writer.notes
  if (notes) for (const note of notes) if (note.value.length === value.length && note.value === value) return note.derived
  const derived = derivedOf(value)
  if (derived && notes) notes.push({ value, derived })
  return derived
}

/** A joined run stays under V8's 128 KB large-object threshold even at two bytes per character. */
const maxRunLength = 32_768

/** Small pieces joined into runs: measured and written one by one they cost more. */
function joinRuns(pieces: Piece[]): Piece[] {
  const runs: Piece[] = []
  let run = ''
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      if (run.length + piece.length > maxRunLength && run) {
        runs.push(run)
        run = ''
      }
      run += piece
    } else {
      if (run) runs.push(run)
      run = ''
      runs.push(piece)
    }
  }
  if (run) runs.push(run)
  return runs
}

/** Shorter strings are not looked up (a noted token holds at least this many characters, all escaped as `\uXXXX`). */
const minRawLength = Math.floor(longStringBytes / 6)

/** Levels split into parts (the request's keys, their lists' elements); deeper cost more in calls than it saved. */
const splitDepth = 2

/** A plain object or array, walked as JSON.stringify would (no toJSON, no class instance). */
function splittable(value: unknown): value is Record<string, unknown> | unknown[] {
  if (!value || typeof value !== 'object') return false
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false
  const proto = Object.getPrototypeOf(value)
  return Array.isArray(value) ? proto === Array.prototype : proto === Object.prototype || proto === null
}

/** Whether a string of `strings` is in `value` (then its part is split down to it). */
function holdsRaw(value: unknown, writer: Writer): boolean {
  if (typeof value === 'string') return value.length >= minRawLength && ((value.length >= minDerivedLength && derivedFor(value, writer) !== undefined) || writer.strings!.find(value) !== -1)
  if (!value || typeof value !== 'object') return false
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsRaw(value[i], writer)) return true
    return false
  }
  for (const key in value) if (holdsRaw((value as Record<string, unknown>)[key], writer)) return true
  return false
}

/** Parts this large (JSON characters, about) are cached; smaller ones cost less to write than to keep. */
const minCachedLength = 256

/**
 * Writes `value`, found under `key` (toJSON is called with it), as pieces; false when it writes nothing. `group`, `index`:
 * its place in the cache (turn-cache.ts), if any.
 */
function write(value: unknown, key: string | number, writer: Writer, depth: number, group: string | undefined, index: number): boolean {
  const { pieces, strings } = writer
  if (strings && typeof value === 'string' && value.length >= minRawLength) {
    // Derived first: a lookup by value would make V8 flatten a joined data URL to compare it.
    if (value.length >= minDerivedLength && writeDerived(value, writer, strings)) return true
    const raw = strings.find(value)
    if (raw !== -1) {
      pieces.push(raw)
      return true
    }
  }
  let cached = group && writer.parts && splittable(value) && !(depth === 1 && Array.isArray(value)) ? group : undefined
  let part = value
  if (cached) {
    const bytes = writer.parts!.findWritten(writer.scope, cached, index, value)
    if (bytes) {
      pieces.push(bytes)
      return true
    }
    // The copy the cache keeps is what is written: a getter read once to write and again to copy could give another
    // value, and a later turn equal to the copy would get bytes that do not spell it. Not plain data: not kept.
    part = plainCopy(value)
    if (part === notPlain) [part, cached] = [value, undefined]
  }
  const start = pieces.length
  const derived = writer.derived
  if (!writeValue(part, key, writer, depth, group)) return false
  // A part holding a derived string is not kept: comparing it next turn would flatten both (~1 ms an image).
  if (cached && writer.derived === derived) keep(writer, start, cached, index, part)
  return true
}

/** A data URL or its base64 a codec made (derived-strings.ts), written from the client's spelling if it can be. */
function writeDerived(value: string, writer: Writer, strings: RawStrings): boolean {
  const derived = derivedFor(value, writer)
  if (!derived) return false
  const rest = derived.kind === 'join' ? spelledFrom(derived.tail, writer, strings) : cutSpelling(derived, strings)
  if (!rest) return false
  writer.pieces.push(derived.kind === 'join' ? JSON.stringify(derived.head).slice(0, -1) : '"', rest)
  writer.derived++
  return true
}

/** The client's spelling of `text` after its opening quote: a noted string, or a slice of one. */
function spelledFrom(text: string, writer: Writer, strings: RawStrings): Buffer | undefined {
  const at = strings.find(text)
  if (at !== -1) return strings.spellingAt(at).subarray(1)
  const derived = text.length >= minDerivedLength ? derivedFor(text, writer) : undefined
  return derived?.kind === 'slice' ? cutSpelling(derived, strings) : undefined
}

/** Bytes each of which is one character of the string: no escape, no UTF-8 sequence. */
const oneByteEach = /^[^\\\x80-\xff]*$/

/** A noted string's spelling from character `from` on (closing quote included), where each character before it is one byte. */
function cutSpelling(derived: Extract<DerivedString, { kind: 'slice' }>, strings: RawStrings): Buffer | undefined {
  const whole = strings.find(derived.whole)
  if (whole === -1) return undefined
  const spelling = strings.spellingAt(whole)
  if (spelling.length < derived.from + 2) return undefined
  const head = spelling.toString('latin1', 1, 1 + derived.from)
  // Equal as latin1 is not one byte per character: `\\\\` reads as two backslashes, and the byte C3 as the `Ã` of C3 83.
  if (head !== derived.whole.slice(0, derived.from) || !oneByteEach.test(head)) return undefined
  return spelling.subarray(1 + derived.from)
}

function writeValue(value: unknown, key: string | number, writer: Writer, depth: number, group: string | undefined): boolean {
  const { pieces, strings } = writer
  if (!splittable(value) || (depth >= splitDepth && !(strings && holdsRaw(value, writer)))) {
    const text = hasToJSON(value) ? stringifyAt(value, key) : JSON.stringify(value)
    if (text === undefined) return false
    pieces.push(text)
    return true
  }
  if (Array.isArray(value)) {
    pieces.push('[')
    for (let i = 0; i < value.length; i++) {
      if (i) pieces.push(',')
      // In a list, what JSON cannot write is null.
      if (!write(value[i], i, writer, depth + 1, depth === 1 ? group : undefined, i)) pieces.push('null')
    }
    pieces.push(']')
    return true
  }
  pieces.push('{')
  let first = true
  // For-in with an own-key check: JSON.stringify's key order, no array per object.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const at = pieces.length
    pieces.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`)
    const keyGroup = depth === 0 && group !== undefined && splittable(value[key]) ? key : undefined
    // In an object, what JSON cannot write leaves its key out.
    if (write(value[key], key, writer, depth + 1, keyGroup, -1)) first = false
    else pieces.length = at
  }
  pieces.push('}')
  return true
}

/** JSON.stringify looks for toJSON on objects (a function is one) and BigInts. */
const hasToJSON = (value: unknown): boolean => (typeof value === 'object' || typeof value === 'function' || typeof value === 'bigint') && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function'

/** JSON.stringify calls toJSON with the value's key (a list's index, '' at the top): written under that key, the key cut off. */
function stringifyAt(value: unknown, key: string | number): string | undefined {
  const name = String(key)
  const text = JSON.stringify({ [name]: value })
  return text === '{}' ? undefined : text.slice(JSON.stringify(name).length + 2, -1)
}

/** A part just written, if large enough, becomes one Buffer the cache keeps with `value`, the copy written. */
function keep(writer: Writer, start: number, group: string, index: number, value: unknown): void {
  const { pieces, strings } = writer
  let length = 0
  for (let i = start; i < pieces.length; i++) {
    const piece = pieces[i]!
    length += typeof piece === 'string' ? piece.length : typeof piece === 'number' ? strings!.byteLength(piece) : piece.length
  }
  if (length < minCachedLength) return
  const bytes = assemble(pieces.slice(start), strings)
  pieces.length = start
  pieces.push(bytes)
  writer.parts!.keepWritten(writer.scope, group, index, value, bytes)
}
