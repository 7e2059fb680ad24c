import { notPlain, plainCopy, sameJson } from './plain-json.ts'

/**
 * The parts of each client key's last turns, as read (a part's bytes -> the value they parse to) and as
 * written (a part's value -> its JSON bytes): a part of a new body equal to one of those is copied, not
 * parsed or written again.
 *
 * Why: an agent sends its tools, its system prompt and its whole history again on every turn, byte for
 * byte, and parsing and writing them is most of what a translated request costs (80 KB agent request,
 * in-process: the read side earns ~280 µs, the written side ~210 µs of a ~900 µs request).
 *
 * A part is found by its place: a top-level key (`group`: `tools`, `messages`) and an index in it (`-1`
 * for the value as a whole, `i` for element `i` of a list). Each place keeps the parts of the key's last
 * few turns (`perPlace`), so an agent and its subagent sending under one key at once both still hit.
 * Read parts are matched by their bytes, written ones by value as JSON.stringify sees it (the same keys in
 * the same order, the same strings and numbers). The cache keeps its own copy of each value and hands out
 * copies, so no request's edit reaches another request or makes a match lie.
 *
 * One byte budget over both sides: past it, the client keys used longest ago go first, so with many
 * clients at once the active ones keep theirs.
 */
export class TurnCache {
  /** Client keys, least recently used first: a key moves to the end when used. */
  readonly #keys = new Map<string, KeyParts>()
  /** The key used last, which is already at the end. */
  #last: string | undefined
  readonly #counts: Record<Side, { hits: number; misses: number; bytes: number }> = { read: { hits: 0, misses: 0, bytes: 0 }, written: { hits: 0, misses: 0, bytes: 0 } }

  /**
   * @param maxBytes JSON bytes kept at most (what the parts hold in JS objects costs about as much again);
   *   0 keeps nothing.
   * @param perPlace parts kept at one place of one key: its last few turns' (several conversations at once).
   */
  constructor(public maxBytes = 16 * 1024 * 1024, readonly perPlace = 4) {}

  /** The read part at a place of `key`'s bodies whose bytes are `bytes`: hand out `plainCopy(part.value)`, never the value. */
  findRead(key: string, group: string, index: number, bytes: Buffer): ReadPart | undefined {
    return this.#find(key, 'read', group, index, part => part.bytes.equals(bytes)) as ReadPart | undefined
  }

  /** Keep `value` as what `bytes` parse to at a place of `key`'s bodies, with its long strings (offsets within `bytes`). */
  keepRead(key: string, group: string, index: number, bytes: Buffer, value: unknown, strings: LongString[]): void {
    const copy = plainCopy(value)
    // The bytes copied: a view would keep the whole client body alive.
    if (copy !== notPlain) this.#add(key, 'read', group, index, { bytes: Buffer.from(bytes), value: copy, strings } as ReadPart)
  }

  /** The bytes written for a value equal to `value` at a place of `key`'s upstream bodies. */
  findWritten(key: string, group: string, index: number, value: unknown): Buffer | undefined {
    return this.#find(key, 'written', group, index, part => sameJson(part.value, value))?.bytes
  }

  /** Keep `bytes` as the JSON of `value` at a place of `key`'s upstream bodies (ignored for values that are not plain JSON data). */
  keepWritten(key: string, group: string, index: number, value: unknown, bytes: Buffer): void {
    const copy = plainCopy(value)
    if (copy !== notPlain) this.#add(key, 'written', group, index, { value: copy, bytes })
  }

  #find(key: string, side: Side, group: string, index: number, matches: (part: Part) => boolean): Part | undefined {
    const parts = this.#keys.get(key)?.[side].get(group)?.[index + 1]
    if (parts) {
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i]!
        if (!matches(part)) continue
        if (i) {
          parts.splice(i, 1)
          parts.unshift(part)
        }
        this.#use(key)
        this.#counts[side].hits++
        return part
      }
    }
    this.#counts[side].misses++
    return undefined
  }

  #add(key: string, side: Side, group: string, index: number, part: Part): void {
    if (this.maxBytes <= 0) return
    const entry = this.#use(key)
    let places = entry[side].get(group)
    if (!places) entry[side].set(group, places = [])
    const parts = places[index + 1] ??= []
    parts.unshift(part)
    this.#count(entry, side, part.bytes.length)
    if (parts.length > this.perPlace) this.#count(entry, side, -parts.pop()!.bytes.length)
    if (this.size > this.maxBytes) this.#evict()
  }

  /** `key`'s parts, made the most recently used (created when new). */
  #use(key: string): KeyParts {
    let entry = this.#keys.get(key)
    if (entry && key === this.#last) return entry
    if (entry) this.#keys.delete(key)
    entry ??= { read: new Map(), written: new Map(), bytes: { read: 0, written: 0 } }
    this.#keys.set(key, entry)
    this.#last = key
    return entry
  }

  #count(entry: KeyParts, side: Side, bytes: number): void {
    entry.bytes[side] += bytes
    this.#counts[side].bytes += bytes
  }

  /** Over budget: the keys used longest ago go, down to three quarters of it; the key in use stays. */
  #evict(): void {
    for (const [key, entry] of this.#keys) {
      if (this.size <= this.maxBytes * 0.75 || key === this.#last) break
      this.#keys.delete(key)
      this.#count(entry, 'read', -entry.bytes.read)
      this.#count(entry, 'written', -entry.bytes.written)
    }
  }

  clear(): void {
    this.#keys.clear()
    this.#last = undefined
    this.#counts.read.bytes = this.#counts.written.bytes = 0
  }

  /** Bytes held in all. */
  get size(): number { return this.#counts.read.bytes + this.#counts.written.bytes }

  /** Lookups that found a part and that did not since the process started, and the bytes held, per side (`/metrics`). */
  stats(side: Side): { hits: number; misses: number; bytes: number } { return { ...this.#counts[side] } }
}

/** A long string of a read part: its value and where its token sits, relative to the part's first byte (core/json/raw-strings.ts). */
export interface LongString { value: string; start: number; end: number }

interface Part { bytes: Buffer; value: unknown }
export interface ReadPart extends Part { strings: LongString[] }
type Side = 'read' | 'written'
/** One client key's parts on each side: by group, then by place (index + 1), newest first; and the bytes they hold. */
interface KeyParts { read: Map<string, Array<Part[] | undefined>>; written: Map<string, Array<Part[] | undefined>>; bytes: Record<Side, number> }
