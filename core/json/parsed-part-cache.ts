import { notPlain, plainCopy } from './plain-json.ts'
import { SlotCache } from './slot-cache.ts'

/**
 * Parsed parts of recent client bodies, by their bytes: a part whose bytes equal a cached part's is not
 * parsed again, it is copied from the cached value.
 *
 * Why: an agent sends its tools, its system prompt and its history again on every turn, byte for byte,
 * and parsing them is the largest cost of a translated request (150 KB agent request: ~480 µs to parse,
 * where comparing the bytes of its parts with the last turn's and copying their values takes ~60). A part
 * is found by its place (`tools`, `messages.17`) and its bytes compared whole. Every request gets its own
 * copy of the value (the strings are shared: they cannot change), so nobody's edit of a parsed body
 * reaches another request or the cache. The parts' long strings come with their place in the part, so the
 * new body still notes their spelling (core/json/raw-strings.ts).
 */
export class ParsedPartCache extends SlotCache<ParsedPart> {
  /** The cached part at place `index` of `group` (core/json/slot-cache.ts) whose bytes are `bytes`. */
  find(group: string, index: number, bytes: Buffer): ParsedPart | undefined {
    return this.findWhere(group, index, part => part.bytes.equals(bytes))
  }

  /** Keep `value` as what `bytes` parse to at place `index` of `group`, with its long strings (offsets within `bytes`). */
  store(group: string, index: number, bytes: Buffer, value: unknown, strings: LongString[]): void {
    const copy = plainCopy(value)
    // The bytes copied: a view would keep the whole client body alive.
    if (copy !== notPlain) this.add(group, index, { bytes: Buffer.from(bytes), value: copy, strings })
  }
}

/** A long string of a part: its value and where its token sits, relative to the part's first byte. */
export interface LongString { value: string; start: number; end: number }

export interface ParsedPart {
  bytes: Buffer
  /** The cache's own copy: hand out `plainCopy(value)`, never the value itself. */
  value: unknown
  strings: LongString[]
}

