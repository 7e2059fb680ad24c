import { arrayElements, objectFields, type TopLevelScan, type ValueRange } from './body-scan.ts'
import { maxJsonDepth } from './json-depth.ts'
import { jsonTextOf } from './json-text.ts'

/**
 * Values over this many bytes are parsed part by part (an array's elements, an object's values), so no
 * string of them is ever built: a one-byte string over 128 KB lands in V8's large-object space, where
 * every allocation maps fresh pages (on this VM the text of a 150 KB agent body cost ~700 µs to build,
 * more than parsing it). Parts this size stay well under that threshold.
 */
export const wholeBytes = 32_768

/**
 * The object a scanned JSON body means, built from the JSON.parse of its parts: the same value as
 * `JSON.parse` of the whole (keys in first-written order, the last of a repeated key winning, `__proto__`
 * an own key). Throws what JSON.parse throws on a malformed part: the caller parses the whole to say
 * exactly what is wrong.
 */
export function parseByParts(bytes: Buffer, scan: TopLevelScan, whole = wholeBytes): Record<string, unknown> {
  return fromFields(bytes, scan.fields, 1, whole)
}

function fromFields(bytes: Buffer, fields: Map<string, ValueRange>, depth: number, whole: number): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  for (const [key, range] of fields) {
    const value = parseRange(bytes, range, depth, whole)
    // An assignment to `__proto__` would set the prototype; JSON.parse makes it an own key.
    if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
    else object[key] = value
  }
  return object
}

function parseRange(bytes: Buffer, range: ValueRange, depth: number, whole: number): unknown {
  if (range.end - range.start > whole) {
    const elements = arrayElements(bytes, range, depth + 1, maxJsonDepth)
    if (elements) return elements.map(element => parseRange(bytes, element, depth + 1, whole))
    const fields = objectFields(bytes, range, depth + 1, maxJsonDepth)
    if (fields) return fromFields(bytes, fields, depth + 1, whole)
  }
  return JSON.parse(jsonTextOf(bytes.subarray(range.start, range.end)))
}
