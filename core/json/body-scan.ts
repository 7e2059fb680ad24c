export const QUOTE = 34
const BACKSLASH = 92
export const COLON = 58
const COMMA = 44
export const OPEN_BRACE = 123
const CLOSE_BRACE = 125
export const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93

/** Where a top-level value sits in the body's bytes: `[start, end)`. */
export interface ValueRange { start: number; end: number }

/** The top level of a JSON object body, found without building it. */
export interface TopLevelScan {
  fields: Map<string, ValueRange> // each key's value (the last when a key repeats, as JSON.parse keeps)
  repeated: Set<string> // keys written twice (an upstream parser might keep the first)
  longStrings: number[] // `[start, end)` pairs of the string tokens of `longStringBytes` or more, in order
  lists: Map<string, ValueRange[]> // the elements of each top-level list
}
type Fields = Pick<TopLevelScan, 'fields' | 'repeated'> & Partial<TopLevelScan> // a nested object's scan: no lists, no long strings

/** String tokens this long are noted (base64, a file); shorter ones cost more to note than they save (README). */
export const longStringBytes = 16 * 1024

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9

export function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i]!)) i++
  return i
}

/** Index just past the quote that closes a string whose opening quote is at `open` (noted in `longs` when long), or -1. */
function stringEnd(bytes: Buffer, open: number, longs?: number[]): number {
  let j = open + 1
  for (;;) {
    j = bytes.indexOf(QUOTE, j)
    if (j === -1) return -1
    let backslashes = 0
    while (bytes[j - 1 - backslashes] === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) break
    j++
  }
  if (longs && j + 1 - open >= longStringBytes) longs.push(open, j + 1)
  return j + 1
}

/** Index just past the value starting at `start` inside a container at `depth`; -1 where it never ends or nests past `maxDepth`. */
function valueEnd(bytes: Buffer, start: number, depth: number, maxDepth: number, longs?: number[]): number {
  const first = bytes[start]
  if (first !== QUOTE && first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = start // a number, `true`, `false` or `null`
    while (i < bytes.length && bytes[i] !== COMMA && bytes[i] !== CLOSE_BRACE && bytes[i] !== CLOSE_BRACKET && !isSpace(bytes[i]!)) i++
    return start < bytes.length ? i : -1
  }
  let level = 0 // a string, or an object or array: brackets counted, strings jumped over
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i]!
    if (c === QUOTE) {
      const end = stringEnd(bytes, i, longs)
      if (end === -1 || level === 0) return end
      i = end - 1
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth + ++level > maxDepth) return -1
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--level === 0) return i + 1
    }
  }
  return -1
}

/** A key's text as JSON.parse decodes it; undefined where JSON.parse would refuse it (a raw control character). */
function keyText(bytes: Buffer, open: number, end: number): string | undefined {
  for (let k = open + 1; k < end - 1; k++) {
    if (bytes[k]! < 0x20) return undefined
    if (bytes[k] === BACKSLASH) try { return JSON.parse(bytes.toString('utf8', open, end)) as string } catch { return undefined }
  }
  return bytes.toString('utf8', open + 1, end - 1)
}

/** The object at `open` (a `{` at `depth`) walked once: each value's range noted in `scan`, or what `shape` names picked into `out`; past its `}`, or -1. */
function objectEnd(bytes: Buffer, open: number, depth: number, maxDepth: number, scan?: Fields, shape?: ObjectShape, out?: Record<string, unknown>): number {
  if (bytes[open] !== OPEN_BRACE || depth > maxDepth) return -1
  let i = skipSpace(bytes, open + 1)
  if (bytes[i] === CLOSE_BRACE) return i + 1
  for (;;) {
    const keyEnd = bytes[i] === QUOTE ? stringEnd(bytes, i) : -1
    const key = keyEnd === -1 ? undefined : keyText(bytes, i, keyEnd)
    i = skipSpace(bytes, keyEnd)
    if (key === undefined || bytes[i] !== COLON) return -1
    const start = skipSpace(bytes, i + 1)
    const elements = scan?.lists && bytes[start] === OPEN_BRACKET ? [] as ValueRange[] : undefined
    let end: number // a repeated key: the last one wins, as in JSON.parse
    if (elements) end = listEnd(bytes, start, depth + 1, maxDepth, elements, scan!.longStrings)
    else if (shape && Object.hasOwn(shape, key)) [out![key], end] = pick(bytes, start, shape[key]!, depth, maxDepth)
    else end = valueEnd(bytes, start, depth, maxDepth, scan?.longStrings)
    if (end === -1 || end === start) return -1
    if (scan) {
      if (scan.fields.has(key)) scan.repeated.add(key)
      scan.fields.set(key, { start, end })
      if (elements) scan.lists!.set(key, elements)
      else scan.lists?.delete(key)
    }
    i = skipSpace(bytes, end)
    if (bytes[i] === COMMA) { i = skipSpace(bytes, i + 1); continue }
    return bytes[i] === CLOSE_BRACE ? i + 1 : -1
  }
}

/** The list opening at `open` (a `[` at `depth`): each element's range noted in `into`, or with `shape` each picked. Index past its `]`, or -1. */
function listEnd(bytes: Buffer, open: number, depth: number, maxDepth: number, into: unknown[], longs?: number[], shape?: BodyShape): number {
  if (depth > maxDepth) return -1
  let i = skipSpace(bytes, open + 1)
  if (bytes[i] === CLOSE_BRACKET) return i + 1
  for (;;) {
    let end: number
    if (shape) [into[into.length], end] = pick(bytes, i, shape, depth, maxDepth)
    else end = valueEnd(bytes, i, depth, maxDepth, longs)
    if (end === -1 || end === i) return -1
    if (!shape) into.push({ start: i, end })
    i = skipSpace(bytes, end)
    if (bytes[i] === COMMA) { i = skipSpace(bytes, i + 1); continue }
    return bytes[i] === CLOSE_BRACKET ? i + 1 : -1
  }
}

/** A list's elements or an object's fields at `range` (at `depth`); undefined where the scan cannot follow or a key repeats (its first value unchecked). */
export function innerRanges(bytes: Buffer, range: ValueRange, depth: number, maxDepth: number): ValueRange[] | Map<string, ValueRange> | undefined {
  if (bytes[range.start] === OPEN_BRACKET) {
    const elements: ValueRange[] = []
    return listEnd(bytes, range.start, depth, maxDepth, elements) === range.end ? elements : undefined
  }
  const scan = { fields: new Map<string, ValueRange>(), repeated: new Set<string>() }
  return objectEnd(bytes, range.start, depth, maxDepth, scan) === range.end && !scan.repeated.size ? scan.fields : undefined
}

/** Where each top-level value is, in one pass from quote to quote; undefined when malformed or too deep (values are checked later). */
export function scanTopLevel(bytes: Buffer, maxDepth: number): TopLevelScan | undefined {
  const scan: TopLevelScan = { fields: new Map(), repeated: new Set(), longStrings: [], lists: new Map() }
  const end = objectEnd(bytes, skipSpace(bytes, 0), 1, maxDepth, scan)
  return end !== -1 && skipSpace(bytes, end) === bytes.length ? scan : undefined
}

/** Index in `longs` of the first pair starting at or after `from` (`longs.length` if none). */
export function firstLongStringAt(longs: number[], from: number): number {
  let low = 0
  let high = longs.length >>> 1
  while (low < high) {
    const mid = (low + high) >>> 1
    if (longs[mid * 2]! < from) low = mid + 1
    else high = mid
  }
  return low * 2
}

export const hasLongString = (longs: number[], start: number, end: number): boolean => (longs[firstLongStringAt(longs, start)] ?? end) < end

/** What to pick out of a body: `true` the value; an object, those keys; `[shape]`, each element. */
export type BodyShape = true | ObjectShape | [BodyShape]
type ObjectShape = { [key: string]: BodyShape }

/** The value at `start` (in a container at `depth`) reduced to what `shape` names, each leaf parsed, and the index past it; throws where it cannot follow. */
export function pick(bytes: Buffer, start: number, shape: BodyShape, depth: number, maxDepth: number): [unknown, number] {
  const c = bytes[start]
  let out: unknown[] | Record<string, unknown> | undefined
  let end: number
  if (Array.isArray(shape) && c === OPEN_BRACKET) end = listEnd(bytes, start, depth + 1, maxDepth, out = [], undefined, shape[0])
  else if (shape !== true && !Array.isArray(shape) && c === OPEN_BRACE) end = objectEnd(bytes, start, depth + 1, maxDepth, undefined, shape, out = {})
  // A leaf, or a value of another kind than the shape expects: parsed whole (a validator sees what it is).
  else end = valueEnd(bytes, start, depth, maxDepth)
  if (end === -1 || end === start) throw new SyntaxError('the body cannot be followed here')
  return [out ?? JSON.parse(bytes.toString('utf8', start, end)), end]
}
