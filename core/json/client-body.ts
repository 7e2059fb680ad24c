import { isUtf8 } from 'node:buffer'
import { ProxyError } from '../errors/proxy-error.ts'
import { jsonDeeperThan, maxJsonDepth } from './json-depth.ts'
import { checkByParts, parseByParts, wholeBytes } from './json-parts.ts'
import { pick, scanTopLevel, type BodyShape, type TopLevelScan } from './body-scan.ts'
import { RawStrings } from './raw-strings.ts'
import { turnCache } from './turn-cache.ts'

const invalid = (message: string) => new ProxyError(400, message, 'invalid_request_error', 'invalid_json')

/** Bad UTF-8 would read as U+FFFD on one path and go upstream as sent on another: refused on all. */
const checkUtf8 = (bytes: Buffer) => { if (!isUtf8(bytes)) throw invalid('request body is not valid UTF-8') }

/** Parse a JSON object body; malformed, too deep or non-object is the client's 400. `depthKnown`: a scan checked the nesting. */
export function parseJsonObject(bytes: Buffer, depthKnown = false): Record<string, unknown> {
  checkUtf8(bytes)
  const text = bytes.toString('utf8')
  if (!text.trim()) throw invalid('request body is empty: expected a JSON object')
  if (!depthKnown && jsonDeeperThan(text)) throw invalid(`request body is nested more than ${maxJsonDepth} levels deep`)
  let body: unknown
  try { body = JSON.parse(text) } catch (error) { throw invalid(`request body is not valid JSON: ${(error as Error).message}`) }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('request body must be a JSON object')
  return body as Record<string, unknown>
}

/** A client's JSON body, parsed whole only when something needs the object; routing reads fields from their bytes (README.md). */
export class ClientBody {
  #parsed?: Record<string, unknown>
  #checkedParts?: Map<number, unknown> // new parts' values the check parsed, until `object()` takes them
  #checked?: Record<string, unknown> // a small body as its check parsed it
  #strings?: RawStrings
  readonly #scan?: TopLevelScan

  /** `scope`: the client key, whose earlier parts may be copied (turn-cache.ts), never another key's. */
  constructor(readonly bytes: Buffer, readonly scope = '') {
    checkUtf8(bytes)
    const scan = this.#scan = scanTopLevel(bytes, maxJsonDepth)
    // Refused now exactly when the plain path's parse would refuse it, before routing or any upstream sees it.
    // A key written twice: the scan kept only its last value's range, so the whole is parsed (and checked).
    if (!scan) this.#parsed = parseJsonObject(bytes)
    else if (scan.repeated.size) this.#parsed = parseJsonObject(bytes, true)
    else if (bytes.length <= wholeBytes && !scan.longStrings.length) this.#checked = parseJsonObject(bytes, true)
    else try { this.#checkedParts = checkByParts(bytes, scan, { cache: turnCache, scope }) } catch { parseJsonObject(bytes, true) } // says what is wrong
  }

  /** Drop the parsed object: the bytes stay, and the next read parses them again. */
  release(): void { this.#parsed = this.#checked = this.#checkedParts = this.#strings = undefined }

  /** The long strings with their spelling in the bytes (raw-strings.ts), once parsed by parts. */
  get rawStrings(): RawStrings | undefined { return this.#strings }

  /** Whether the whole object has been built (then it is the truth: hooks may have changed it). */
  get parsed(): boolean { return this.#parsed !== undefined }

  object(): Record<string, unknown> { return this.#parsed ??= this.#build() }

  #build(): Record<string, unknown> {
    const scan = this.#scan
    if (!scan || (this.bytes.length <= wholeBytes && !scan.longStrings.length)) return this.#checked ?? parseJsonObject(this.bytes, scan !== undefined)
    const strings = scan.longStrings.length ? new RawStrings(this.bytes) : undefined
    let body: Record<string, unknown>
    try {
      body = parseByParts(this.bytes, scan, wholeBytes, strings, { cache: turnCache, scope: this.scope }, this.#checkedParts)
    } catch {
      return parseJsonObject(this.bytes, true) // checked when read; should it still fail, this says why
    }
    this.#checkedParts = undefined
    if (strings?.size) this.#strings = strings
    return body
  }

  /** A top-level field, parsed from its own bytes while the whole is not built. */
  field(key: string): unknown {
    if (this.#parsed || !this.#scan) return this.object()[key]
    const range = this.#scan.fields.get(key)
    if (!range) return undefined
    // Checked when read; should it still fail, the full parse says why.
    try { return JSON.parse(this.bytes.toString('utf8', range.start, range.end)) } catch { return this.object()[key] }
  }

  /** Whether the body has a top-level key, its value unread. */
  has(key: string): boolean {
    return this.#parsed || !this.#scan ? Object.hasOwn(this.object(), key) : this.#scan.fields.has(key)
  }

  /** The body reduced to what `shape` names (body-scan.ts), or the whole object once built. */
  skeleton(shape: Record<string, BodyShape>): Record<string, unknown> { return this.#parsed ?? this.#checked ?? this.writtenSkeleton(shape) ?? this.object() }

  /** The skeleton as the client wrote it, even once parsed (undefined: the bytes cannot be followed there; each range holds one valid value). */
  writtenSkeleton(shape: Record<string, BodyShape>): Record<string, unknown> | undefined {
    if (!this.#scan) return undefined
    const out: Record<string, unknown> = {}
    try {
      for (const key in shape) {
        const range = this.#scan.fields.get(key)
        if (range) out[key] = pick(this.bytes, range.start, shape[key]!, 1, maxJsonDepth)[0]
      }
    } catch { return undefined }
    return out
  }

  /** A top-level value as written (latin1, for hashing), or its first `count` elements as `[e0,e1]`; undefined: ask the object. */
  rawText(key: string, count?: number): string | undefined {
    const range = this.#scan?.fields.get(key)
    if (!range) return undefined
    if (count === undefined) return this.bytes.toString('latin1', range.start, range.end)
    const elements = this.#scan!.lists.get(key)
    if (!elements || count > elements.length) return undefined
    return count ? `[${this.bytes.toString('latin1', elements[0]!.start, elements[count - 1]!.end)}]` : '[]'
  }

  /** Whether `key` (without one: any key) is written twice; undefined when the bytes could not be scanned. */
  repeats(key?: string): boolean | undefined { return key === undefined ? this.#scan && this.#scan.repeated.size > 0 : this.#scan?.repeated.has(key) }

  /** Whether the strings may hold ASCII `marker`: its bytes (found by its first capital or digit), or any of its characters spelled `\u00XX` (README). */
  mayContain(marker: string): boolean {
    const bytes = this.bytes
    const at = Math.max(0, marker.search(/[A-Z0-9]/))
    const pivot = marker.charCodeAt(at)
    for (let j = bytes.indexOf(pivot, at); j !== -1; j = bytes.indexOf(pivot, j + 1)) {
      if (bytes.toString('latin1', j - at, j - at + marker.length) === marker) return true
    }
    for (let j = bytes.indexOf('\\u00'); j !== -1; j = bytes.indexOf('\\u00', j + 1)) {
      const code = Number.parseInt(bytes.toString('latin1', j + 4, j + 6), 16)
      if (code && marker.includes(String.fromCharCode(code))) return true
    }
    return marker.includes('/') && bytes.includes('\\/')
  }
}
