import type { RawStrings } from './raw-strings.ts'

/**
 * `JSON.stringify(value)` as UTF-8 bytes, built from the JSON of each part (every key of the top object,
 * every element of its lists, a few levels down) instead of one string for the whole.
 *
 * Why: a translated agent request is 80-150 KB of JSON, and one em dash in it makes the whole string two
 * bytes per character: 160-300 KB, past V8's 128 KB large-object threshold, where every allocation maps
 * fresh pages (on this VM each costs microseconds). Measured on an 80 KB request: JSON.stringify 268 µs
 * and the UTF-8 encode undici does on a string body 321 µs (1.2 ms under load), against 44 µs for the
 * parts (small strings die young) encoded and joined. The bytes are the same as JSON.stringify's.
 *
 * `strings`: long strings whose JSON spelling is known (the client's own bytes, core/http/raw-strings.ts)
 * are copied from there instead of escaped again; the parts holding them are split down to them. The
 * bytes then mean what JSON.stringify's mean (a client may spell an escape differently).
 */
export function jsonBytes(value: unknown, strings?: RawStrings): Buffer {
  // A number stands for a string of `strings`, copied from the client's bytes.
  const pieces: Array<string | number> = []
  const raw = strings?.size ? strings : undefined
  write(value, pieces, 0, raw)
  const runs = joinRuns(pieces)
  // Measured, then written straight into one Buffer: no chunk Buffers to concatenate.
  let size = 0
  for (const run of runs) size += typeof run === 'string' ? Buffer.byteLength(run) : raw!.byteLength(run)
  const out = Buffer.allocUnsafe(size)
  let at = 0
  for (const run of runs) at += typeof run === 'string' ? out.write(run, at) : raw!.copy(run, out, at)
  return out
}

/** A joined run stays under V8's 128 KB large-object threshold even at two bytes per character. */
const maxRunLength = 32_768

/**
 * Small pieces joined into runs (up to a copied string, or `maxRunLength`): measuring and writing ~800
 * pieces one by one cost more than joining them (150 KB translated request, in-process: 138 -> 96 µs).
 */
function joinRuns(pieces: Array<string | number>): Array<string | number> {
  const runs: Array<string | number> = []
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

/** Strings shorter than this are not looked up (a 256-byte token holds at least 42 characters, all escaped as `\uXXXX`). */
const minRawLength = 42

/**
 * Levels split into parts: the request's keys and each element of its lists (a message, a tool); those
 * are stringified whole. Splitting deeper cost more in calls than it saved (measured: 4 levels, 427 µs
 * per 80 KB request under load).
 */
const splitDepth = 2

/** A plain object or array, as JSON.stringify walks it (no toJSON, no class instance, no Proxy trickery needed). */
function splittable(value: unknown): value is Record<string, unknown> | unknown[] {
  if (!value || typeof value !== 'object') return false
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false
  const proto = Object.getPrototypeOf(value)
  return Array.isArray(value) ? proto === Array.prototype : proto === Object.prototype || proto === null
}

/** Whether a string of `strings` is somewhere in `value` (then its part is split down to it). */
function holdsRaw(value: unknown, strings: RawStrings): boolean {
  if (typeof value === 'string') return value.length >= minRawLength && strings.find(value) !== -1
  if (!value || typeof value !== 'object') return false
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsRaw(value[i], strings)) return true
    return false
  }
  for (const key in value) if (holdsRaw((value as Record<string, unknown>)[key], strings)) return true
  return false
}

/** Writes the JSON of `value` as pieces; false when `value` writes nothing (undefined, a function, a symbol). */
function write(value: unknown, pieces: Array<string | number>, depth: number, strings: RawStrings | undefined): boolean {
  if (strings && typeof value === 'string' && value.length >= minRawLength) {
    const index = strings.find(value)
    if (index !== -1) {
      pieces.push(index)
      return true
    }
  }
  if (!splittable(value) || (depth >= splitDepth && !(strings && holdsRaw(value, strings)))) {
    const text = JSON.stringify(value)
    if (text === undefined) return false
    pieces.push(text)
    return true
  }
  if (Array.isArray(value)) {
    pieces.push('[')
    for (let i = 0; i < value.length; i++) {
      if (i) pieces.push(',')
      // In a list, what JSON cannot write is null.
      if (!write(value[i], pieces, depth + 1, strings)) pieces.push('null')
    }
    pieces.push(']')
    return true
  }
  pieces.push('{')
  let first = true
  for (const key of Object.keys(value)) {
    const at = pieces.length
    pieces.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`)
    // In an object, what JSON cannot write leaves its key out.
    if (write(value[key], pieces, depth + 1, strings)) first = false
    else pieces.length = at
  }
  pieces.push('}')
  return true
}
