import { COLON, firstLongStringAt, hasLongString, innerRanges, OPEN_BRACE, OPEN_BRACKET, QUOTE, skipSpace } from './body-scan.ts'
import type { TopLevelScan, ValueRange } from './body-scan.ts'
import { maxJsonDepth } from './json-depth.ts'
import { isAscii } from 'node:buffer'
import { RawStrings } from './raw-strings.ts'
import { plainCopy, setOwn } from './plain-json.ts'
import type { LongString, TurnCache } from './turn-cache.ts'

/** Values over this many bytes are parsed by parts: a string over 128 KB lands in V8's large-object space (README.md). */
export const wholeBytes = 32_768

/** What one parse by parts reads from and notes into. */
interface Parts {
  bytes: Buffer
  scan: TopLevelScan
  whole: number
  strings: RawStrings | undefined
  cached: CacheUse | undefined
  checked: Map<number, unknown> | undefined // the values a check parsed for new parts, by where each starts
  check: boolean // only checking: no value is built for a part this key sent before
}

/** Parts this large (bytes) are cached; smaller ones cost less to parse than to keep. */
const minCachedBytes = 256

interface CacheUse { cache: TurnCache; scope: string } // `scope`: the client key; another key's parts are never used

/** What `JSON.parse` gives (key order, the last repeated key, `__proto__` own), built by parts; notes long strings into `strings`. */
export function parseByParts(bytes: Buffer, scan: TopLevelScan, whole = wholeBytes, strings?: RawStrings, cached?: CacheUse, checked?: Map<number, unknown>) {
  return fromFields({ bytes, scan, whole, strings, cached, checked, check: false }, scan.fields, 1)
}

/** Throws as JSON.parse on a malformed part. One this key sent before is good (only such are kept); a new one is kept by its bytes, its value returned. */
export function checkByParts(bytes: Buffer, scan: TopLevelScan, cached?: CacheUse): Map<number, unknown> {
  const checked = new Map<number, unknown>()
  fromFields({ bytes, scan, whole: wholeBytes, strings: undefined, cached, checked, check: true }, scan.fields, 1)
  return checked
}

function fromFields(parts: Parts, fields: Map<string, ValueRange>, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  for (const [key, range] of fields) {
    // A large top-level value: an object looked up in the cache whole, a list element by element.
    const first = depth === 1 && parts.cached && range.end - range.start >= minCachedBytes ? parts.bytes[range.start] : undefined
    if (first === OPEN_BRACKET) setOwn(object, key, parts.scan.lists.get(key)!.map((element, i) => parseCached(parts, key, i, element, 2)))
    else setOwn(object, key, first === OPEN_BRACE ? parseCached(parts, key, -1, range, 1) : parseRange(parts, range, depth))
  }
  return object
}

/** A part copied from the cache when its bytes were parsed before, else parsed and kept. */
function parseCached(parts: Parts, group: string, index: number, range: ValueRange, depth: number): unknown {
  if (range.end - range.start < minCachedBytes) return parseRange(parts, range, depth)
  const { cache, scope } = parts.cached!
  const bytes = parts.bytes.subarray(range.start, range.end)
  const hit = cache.findRead(scope, group, index, bytes)
  if (hit && parts.check) return undefined
  if (hit && hit.value !== undefined) {
    // Its long strings sit at the same offsets in this part's bytes.
    for (const string of hit.strings) parts.strings?.add(string.value, range.start + string.start, range.start + string.end)
    return plainCopy(hit.value)
  }
  const noted = parts.strings?.size ?? 0
  const value = parts.checked?.has(range.start) ? parts.checked.get(range.start) : parseRange(parts, range, depth)
  if (parts.check) {
    // A part holding a long string is left to `parseByParts`, which notes its spelling.
    if (!hasLongString(parts.scan.longStrings, range.start, range.end)) {
      cache.keepRead(scope, group, index, bytes, undefined, [])
      parts.checked!.set(range.start, value)
    }
    return undefined
  }
  const strings: LongString[] = []
  for (let i = noted; i < (parts.strings?.size ?? 0); i++) {
    const { value: text, start, end } = parts.strings!.entry(i)
    strings.push({ value: text, start: start - range.start, end: end - range.start })
  }
  // A part a check kept by its bytes alone gets its value now, in place.
  if (hit) Object.assign(hit, { value: plainCopy(value), strings })
  else cache.keepRead(scope, group, index, bytes, value, strings)
  return value
}

function parseRange(parts: Parts, range: ValueRange, depth: number): unknown {
  const { bytes } = parts
  if (parts.strings !== undefined && hasLongString(parts.scan.longStrings, range.start, range.end)) {
    const value = bytes[range.start] === QUOTE ? longString(parts, range.start, range.end) : parseAroundLongStrings(parts, range)
    if (value !== undefined) return value // undefined: the client spells a stand-in itself
  }
  if (range.end - range.start > parts.whole) {
    const inner = innerRanges(bytes, range, depth + 1, maxJsonDepth)
    if (Array.isArray(inner)) return inner.map(element => parseRange(parts, element, depth + 1))
    if (inner) return fromFields(parts, inner, depth + 1)
  }
  return JSON.parse(bytes.toString('utf8', range.start, range.end))
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const controlCharacter = /[\u0000-\u001f]/

/** A long string token, parsed on its own and noted with its spelling; a large ASCII one without escapes (base64) read as it is, at half JSON.parse's cost. */
function longString(parts: Parts, start: number, end: number): string {
  const inner = parts.bytes.subarray(start + 1, end - 1)
  const plain = end - start > parts.whole && inner.indexOf(0x5c) === -1 && isAscii(inner) ? inner.toString('latin1') : undefined
  const value = plain !== undefined && !controlCharacter.test(plain) ? plain : JSON.parse(parts.bytes.toString('utf8', start, end)) as string
  parts.strings!.add(value, start, end)
  return value
}

/**
 * A value holding long strings: one JSON.parse with a stand-in `"\u0000<n>"` for each, then each string put back, parsed and
 * noted (cheaper than splitting down to them). Undefined when the client's text spells `\u0000` itself.
 */
function parseAroundLongStrings(parts: Parts, range: ValueRange): unknown {
  const { bytes, scan: { longStrings: longs } } = parts
  const pieces: string[] = []
  const holes: number[] = []
  let at = range.start
  for (let i = firstLongStringAt(longs, range.start); i < longs.length && longs[i]! < range.end; i += 2) {
    const start = longs[i]!
    const end = longs[i + 1]!
    if (bytes[skipSpace(bytes, end)] === COLON) continue // a key: left in place
    const gap = bytes.toString('utf8', at, start)
    if (gap.includes('\\u0000')) return undefined
    pieces.push(gap, `"\\u0000${holes.length >>> 1}"`)
    holes.push(start, end)
    at = end
  }
  const tail = bytes.toString('utf8', at, range.end)
  if (tail.includes('\\u0000')) return undefined
  pieces.push(tail)
  const value = JSON.parse(pieces.join('')) as Record<string, unknown>
  restore(value, parts, holes)
  return value
}

/** Puts the long strings back where their stand-ins are, in place (a list's items by index). */
function restore(items: Record<string, unknown>, parts: Parts, holes: number[]): void {
  for (const key in items) {
    const item = items[key]
    if (item && typeof item === 'object') restore(item as Record<string, unknown>, parts, holes)
    else if (typeof item === 'string' && item.charCodeAt(0) === 0) {
      const k = Number(item.slice(1)) * 2
      setOwn(items, key, longString(parts, holes[k]!, holes[k + 1]!))
    }
  }
}
