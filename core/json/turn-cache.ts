import { notPlain, plainCopy, sameJson } from './plain-json.ts'

/**
 * The parts of each client key's last turns, as read (bytes -> value) and as written (value -> bytes), copied in and out (README.md).
 * A place is a top-level key (`group`) and an index (-1 the value whole, `i` a list's element), holding `perPlace` turns.
 */
export class TurnCache {
  readonly #keys = new Map<string, KeyParts>() // least recently used first
  #last: string | undefined // the key used last, already at the end
  /** Hits, misses and bytes held, per side (`/metrics`). */
  readonly counts: Record<Side, CacheCounts> = { read: { hits: 0, misses: 0, bytes: 0 }, written: { hits: 0, misses: 0, bytes: 0 } }

  /** `maxBytes`: JSON bytes kept (their objects cost about as much again); 0 keeps nothing. */
  constructor(public maxBytes = 16 * 1024 * 1024, readonly perPlace = 4) {}

  /** The read part at a place whose bytes are `bytes`: hand out `plainCopy(part.value)`, never the value. */
  findRead(key: string, group: string, index: number, bytes: Buffer): ReadPart | undefined {
    return this.#find(key, 'read', group, index, part => part.bytes.equals(bytes)) as ReadPart | undefined
  }

  /** Keep `value` as what `bytes` parse to, with its long strings; `undefined`: they parsed, the value is not kept (a check). */
  keepRead(key: string, group: string, index: number, bytes: Buffer, value: unknown, strings: LongString[]): void {
    const copy = plainCopy(value)
    // The bytes copied: a view would keep the whole client body alive.
    if (copy !== notPlain) this.#add(key, 'read', group, index, { bytes: Buffer.from(bytes), value: copy, strings } as ReadPart)
  }

  /** The bytes written for a value equal to `value` (`sameJson`) at a place. */
  findWritten(key: string, group: string, index: number, value: unknown): Buffer | undefined {
    return this.#find(key, 'written', group, index, part => sameJson(part.value, value))?.bytes
  }

  /** Keep `bytes` as the JSON of `value` at a place: a plain copy, the cache's own. */
  keepWritten(key: string, group: string, index: number, value: unknown, bytes: Buffer): void {
    this.#add(key, 'written', group, index, { value, bytes })
  }

  #find(key: string, side: Side, group: string, index: number, matches: (part: Part) => boolean): Part | undefined {
    const parts = this.#keys.get(key)?.[side].get(group)?.[index + 1]
    const at = parts ? parts.findIndex(matches) : -1
    if (at === -1) { this.counts[side].misses++; return undefined }
    const part = parts![at]!
    if (at) parts!.copyWithin(1, 0, at)[0] = part // to the front: newest first
    this.#use(key)
    this.counts[side].hits++
    return part
  }

  #add(key: string, side: Side, group: string, index: number, part: Part): void {
    if (this.maxBytes <= 0) return
    const entry = this.#use(key)
    let places = entry[side].get(group)
    if (!places) entry[side].set(group, places = [])
    const parts = places[index + 1] ??= []
    parts.unshift(part)
    this.counts[side].bytes += part.bytes.length
    if (parts.length > this.perPlace) this.counts[side].bytes -= parts.pop()!.bytes.length
    if (this.size > this.maxBytes) this.#evict()
  }

  /** `key`'s parts, made the most recently used (created when new). */
  #use(key: string): KeyParts {
    const entry = this.#keys.get(key) ?? { read: new Map(), written: new Map() }
    if (key === this.#last) return entry
    this.#keys.delete(key)
    this.#keys.set(key, entry)
    this.#last = key
    return entry
  }

  /** Over budget: the keys used longest ago go, down to three quarters of it; the key in use stays. */
  #evict(): void {
    for (const [key, entry] of this.#keys) {
      if (this.size <= this.maxBytes * 0.75 || key === this.#last) break
      this.#keys.delete(key)
      for (const side of ['read', 'written'] as const) {
        for (const part of [...entry[side].values()].flat(2) as Part[]) this.counts[side].bytes -= part.bytes.length
      }
    }
  }

  /** Sets the budget in bytes; 0 turns the cache off (then every body is read and written from scratch). */
  setBudget(bytes: number): void {
    this.maxBytes = bytes
    if (bytes > 0) return
    this.#keys.clear()
    this.#last = undefined
    this.counts.read.bytes = this.counts.written.bytes = 0
  }

  get size(): number { return this.counts.read.bytes + this.counts.written.bytes }
}

export const turnCache = new TurnCache() // the JSON layer's one cache, per process

export interface CacheCounts { hits: number; misses: number; bytes: number }
export interface JsonCacheStats extends CacheCounts { budget: number; bySide: { parse: CacheCounts; write: CacheCounts } }

/** Hits, misses and bytes held: in all, and per side (`parse`: as read from clients, `write`: as written upstream). */
export function jsonCacheStats(): JsonCacheStats {
  const parse = { ...turnCache.counts.read }
  const write = { ...turnCache.counts.written }
  return { hits: parse.hits + write.hits, misses: parse.misses + write.misses, bytes: turnCache.size, budget: turnCache.maxBytes, bySide: { parse, write } }
}

/** A long string of a read part: its value and where its token sits, relative to the part's first byte. */
export interface LongString { value: string; start: number; end: number }

interface Part { bytes: Buffer; value: unknown }
export interface ReadPart extends Part { strings: LongString[] }
type Side = 'read' | 'written'
type KeyParts = Record<Side, Map<string, Array<Part[] | undefined>>> // by group then by place (index + 1), newest first
