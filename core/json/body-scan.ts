export const QUOTE = 34
const BACKSLASH = 92
export const COLON = 58
export const COMMA = 44
export const OPEN_BRACE = 123
const CLOSE_BRACE = 125
export const OPEN_BRACKET = 91
export const CLOSE_BRACKET = 93

/** Where a top-level value sits in the body's bytes: `[start, end)`. */
export interface ValueRange { start: number; end: number }

/** The top level of a JSON object body, found without building it. */
export interface TopLevelScan {
  fields: Map<string, ValueRange> // each key's value (the last when a key repeats, as JSON.parse keeps)
  repeated: Set<string> // keys written twice (an upstream parser might keep the first)
  longStrings: number[] // `[start, end)` pairs of the string tokens of `longStringBytes` or more, in order
  lists?: Map<string, ValueRange[]> // the elements of each top-level list
}

/** String tokens this long are noted (base64, a file); shorter ones cost more to note than they save (README). */
export const longStringBytes = 16 * 1024

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9

export function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i]!)) i++
  return i
}

/** Index just past the quote that closes a string whose opening quote is at `open`, or -1. */
function stringEnd(bytes: Buffer, open: number): number {
  let j = open + 1
  for (;;) {
    j = bytes.indexOf(QUOTE, j)
    if (j === -1) return -1
    let backslashes = 0
    while (bytes[j - 1 - backslashes] === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return j + 1
    j++
  }
}

/** Index just past the object or array opening at `open`; -1 when it never closes or nests past `maxDepth`. */
function containerEnd(bytes: Buffer, open: number, depth: number, maxDepth: number, longs?: number[]): number {
  let level = 0
  for (let i = open; i < bytes.length; i++) {
    const c = bytes[i]!
    if (c === QUOTE) {
      const end = stringEnd(bytes, i)
      if (end === -1) return -1
      if (longs && end - i >= longStringBytes) longs.push(i, end)
      i = end - 1
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth + ++level > maxDepth) return -1
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--level === 0) return i + 1
    }
  }
  return -1
}

/** Index just past a number, `true`, `false` or `null` starting at `from`. */
function scalarEnd(bytes: Uint8Array, from: number): number {
  let i = from
  while (i < bytes.length) {
    const c = bytes[i]!
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break
    i++
  }
  return i
}

/** A key's text as JSON.parse decodes it; undefined where JSON.parse would refuse it (a raw control character). */
function keyText(bytes: Buffer, open: number, end: number): string | undefined {
  for (let k = open + 1; k < end - 1; k++) {
    if (bytes[k]! < 0x20) return undefined
    if (bytes[k] !== BACKSLASH) continue
    try {
      return JSON.parse(bytes.toString('utf8', open, end)) as string
    } catch {
      return undefined
    }
  }
  return bytes.toString('utf8', open + 1, end - 1)
}

/** An object opening at `open` (a `{`): its keys' value ranges and the index just past its `}`, or undefined. */
function scanObject(bytes: Buffer, open: number, depth: number, maxDepth: number, longs?: number[], lists?: Map<string, ValueRange[]>): (TopLevelScan & { end: number }) | undefined {
  const fields = new Map<string, ValueRange>()
  const repeated = new Set<string>()
  const longStrings = longs ?? []
  if (bytes[open] !== OPEN_BRACE || depth > maxDepth) return undefined
  let i = skipSpace(bytes, open + 1)
  if (bytes[i] === CLOSE_BRACE) return { fields, repeated, longStrings, end: i + 1 }
  for (;;) {
    if (bytes[i] !== QUOTE) return undefined
    const keyEnd = stringEnd(bytes, i)
    if (keyEnd === -1) return undefined
    const key = keyText(bytes, i, keyEnd)
    if (key === undefined) return undefined
    i = skipSpace(bytes, keyEnd)
    if (bytes[i] !== COLON) return undefined
    const start = skipSpace(bytes, i + 1)
    const elements = lists && bytes[start] === OPEN_BRACKET ? [] as ValueRange[] : undefined
    const end = elements ? listEnd(bytes, start, depth, maxDepth, elements, longs) : valueEnd(bytes, start, depth, maxDepth, longs)
    if (end === -1 || end === start) return undefined
    if (fields.has(key)) repeated.add(key)
    fields.set(key, { start, end })
    if (elements) lists!.set(key, elements)
    else lists?.delete(key)
    i = skipSpace(bytes, end)
    if (bytes[i] === COMMA) { i = skipSpace(bytes, i + 1); continue }
    return bytes[i] === CLOSE_BRACE ? { fields, repeated, longStrings, end: i + 1 } : undefined
  }
}

/** Index just past a list opening at `open` (a `[`), its elements noted in `elements`, or -1. */
function listEnd(bytes: Buffer, open: number, depth: number, maxDepth: number, elements: ValueRange[], longs?: number[]): number {
  if (depth + 1 > maxDepth) return -1
  const close = elementsFrom(bytes, open + 1, depth + 1, maxDepth, elements, longs)
  return close === -1 ? -1 : close + 1
}

/** Notes a list's elements from `from` (just past its `[`): the index of its `]`, or -1. */
function elementsFrom(bytes: Buffer, from: number, depth: number, maxDepth: number, elements: ValueRange[], longs?: number[]): number {
  let i = skipSpace(bytes, from)
  if (bytes[i] === CLOSE_BRACKET) return i
  for (;;) {
    const end = valueEnd(bytes, i, depth, maxDepth, longs)
    if (end === -1 || end === i) return -1
    elements.push({ start: i, end })
    i = skipSpace(bytes, end)
    if (bytes[i] === COMMA) { i = skipSpace(bytes, i + 1); continue }
    return bytes[i] === CLOSE_BRACKET ? i : -1
  }
}

/** Index just past the value starting at `start` inside a container at `depth`, or -1. */
export function valueEnd(bytes: Buffer, start: number, depth: number, maxDepth: number, longs?: number[]): number {
  const c = bytes[start]
  if (c === QUOTE) {
    const end = stringEnd(bytes, start)
    if (longs && end - start >= longStringBytes) longs.push(start, end)
    return end
  }
  return c === OPEN_BRACE || c === OPEN_BRACKET ? containerEnd(bytes, start, depth, maxDepth, longs)
    : start < bytes.length ? scalarEnd(bytes, start) : -1
}

/** The elements of an array at `range`, or undefined when the scan cannot follow it. */
export function arrayElements(bytes: Buffer, range: ValueRange, depth: number, maxDepth: number): ValueRange[] | undefined {
  if (bytes[range.start] !== OPEN_BRACKET) return undefined
  const elements: ValueRange[] = []
  return elementsFrom(bytes, range.start + 1, depth, maxDepth, elements) === range.end - 1 ? elements : undefined
}

/** The keys of an object at `range` and their values' ranges; undefined when the scan cannot follow it or a key repeats (its first value would go unchecked). */
export function objectFields(bytes: Buffer, range: ValueRange, depth: number, maxDepth: number): Map<string, ValueRange> | undefined {
  const scan = scanObject(bytes, range.start, depth, maxDepth)
  return scan && scan.end === range.end && !scan.repeated.size ? scan.fields : undefined
}

/** Where each top-level value is, in one pass from quote to quote; undefined when malformed or too deep (values are checked later). */
export function scanTopLevel(bytes: Buffer, maxDepth: number): TopLevelScan | undefined {
  const lists = new Map<string, ValueRange[]>()
  const scan = scanObject(bytes, skipSpace(bytes, 0), 1, maxDepth, [], lists)
  if (!scan || skipSpace(bytes, scan.end) !== bytes.length) return undefined
  return { fields: scan.fields, repeated: scan.repeated, longStrings: scan.longStrings, lists }
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

export function hasLongString(longs: number[], start: number, end: number): boolean {
  const at = firstLongStringAt(longs, start)
  return at < longs.length && longs[at]! < end
}

const unfollowable = () => new SyntaxError('the body cannot be followed here')

/** What to pick out of a body: `true` the value; an object, those keys; `[shape]`, each element. */
export type BodyShape = true | { [key: string]: BodyShape } | [BodyShape]

/** The value at `range` reduced to what `shape` names, each leaf parsed from its bytes; throws where it cannot follow them. */
export function skeletonOf(bytes: Buffer, range: ValueRange, shape: BodyShape, depth: number, maxDepth: number): unknown {
  const [value, end] = pick(bytes, range.start, shape, depth, maxDepth)
  if (end !== range.end) throw unfollowable()
  return value
}

/** The skeleton of the value starting at `start` and the index just past it. */
function pick(bytes: Buffer, start: number, shape: BodyShape, depth: number, maxDepth: number): [unknown, number] {
  const c = bytes[start]
  if (Array.isArray(shape) && c === OPEN_BRACKET) {
    if (depth + 1 > maxDepth) throw unfollowable()
    const out: unknown[] = []
    let i = skipSpace(bytes, start + 1)
    if (bytes[i] === CLOSE_BRACKET) return [out, i + 1]
    for (;;) {
      const [value, end] = pick(bytes, i, shape[0], depth + 1, maxDepth)
      out.push(value)
      i = skipSpace(bytes, end)
      if (bytes[i] === COMMA) { i = skipSpace(bytes, i + 1); continue }
      if (bytes[i] === CLOSE_BRACKET) return [out, i + 1]
      throw unfollowable()
    }
  }
  if (shape !== true && !Array.isArray(shape) && c === OPEN_BRACE) {
    if (depth + 1 > maxDepth) throw unfollowable()
    const out: Record<string, unknown> = {}
    let i = skipSpace(bytes, start + 1)
    if (bytes[i] === CLOSE_BRACE) return [out, i + 1]
    for (;;) {
      if (bytes[i] !== QUOTE) throw unfollowable()
      const keyEnd = stringEnd(bytes, i)
      const key = keyEnd === -1 ? undefined : keyText(bytes, i, keyEnd)
      if (key === undefined) throw unfollowable()
      i = skipSpace(bytes, keyEnd)
      if (bytes[i] !== COLON) throw unfollowable()
      const valueStart = skipSpace(bytes, i + 1)
      let end: number
      // A repeated key: the last one wins, as in JSON.parse.
      if (Object.hasOwn(shape, key)) [out[key], end] = pick(bytes, valueStart, shape[key]!, depth + 1, maxDepth)
      else end = valueEnd(bytes, valueStart, depth + 1, maxDepth)
      if (end === -1 || end === valueStart) throw unfollowable()
      i = skipSpace(bytes, end)
      if (bytes[i] === COMMA) { i = skipSpace(bytes, i + 1); continue }
      if (bytes[i] === CLOSE_BRACE) return [out, i + 1]
      throw unfollowable()
    }
  }
  // A leaf, or a value of another kind than the shape expects: parsed whole (a validator sees what it is).
  const end = valueEnd(bytes, start, depth, maxDepth)
  if (end === -1 || end === start) throw unfollowable()
  return [JSON.parse(bytes.toString('utf8', start, end)), end]
}
