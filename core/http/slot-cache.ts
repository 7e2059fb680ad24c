import { MissStreaks } from './miss-streaks.ts'

/**
 * Recent parts of bodies by their place (`tools.3`, `messages.17`, prefixed with the client key's scope):
 * a few per place, newest first, under a byte budget. Past the budget the places used longest ago go
 * first, so with many clients at once the active ones keep theirs. What the two part caches share
 * (core/http/json-part-cache.ts, core/http/parsed-part-cache.ts).
 */
export class SlotCache<Part extends { bytes: Buffer }> {
  readonly #slots = new Map<string, Slot<Part>>()
  #bytes = 0
  /** Counts uses: a place's `used` says when it was last found or added to. */
  #clock = 0
  #hits = 0
  #misses = 0
  /** Groups of parts (a client key's `messages`) that stopped finding anything are left alone a while. */
  readonly streaks = new MissStreaks()

  /**
   * @param maxBytes bytes kept at most (what the parts hold in JS objects costs about as much again).
   * @param perSlot parts kept for one place (several conversations at once).
   */
  constructor(readonly maxBytes = 8 * 1024 * 1024, readonly perSlot = 8) {}

  /** The first part at `slot` that `matches` (it moves to the front). */
  protected findWhere(slot: string, matches: (part: Part) => boolean): Part | undefined {
    const place = this.#slots.get(slot)
    if (!place) {
      this.#misses++
      return undefined
    }
    const { parts } = place
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!
      if (!matches(part)) continue
      if (i) {
        parts.splice(i, 1)
        parts.unshift(part)
      }
      place.used = ++this.#clock
      this.#hits++
      return part
    }
    this.#misses++
    return undefined
  }

  protected add(slot: string, part: Part): void {
    let place = this.#slots.get(slot)
    if (!place) this.#slots.set(slot, place = { parts: [], used: 0 })
    place.used = ++this.#clock
    place.parts.unshift(part)
    this.#bytes += part.bytes.length
    if (place.parts.length > this.perSlot) this.#bytes -= place.parts.pop()!.bytes.length
    if (this.#bytes > this.maxBytes) this.#evict()
  }

  /**
   * The oldest part at `slot` when the place is full and it `fits`, moved to the front to be refilled by
   * the caller (a part whose buffer is reused instead of allocated again: its byte count must not change).
   */
  protected recycle(slot: string, fits: (part: Part) => boolean): Part | undefined {
    const place = this.#slots.get(slot)
    if (!place || place.parts.length < this.perSlot || !fits(place.parts.at(-1)!)) return undefined
    const part = place.parts.pop()!
    place.parts.unshift(part)
    place.used = ++this.#clock
    return part
  }

  /**
   * Over budget: the places used longest ago go, down to three quarters of the budget (one sort now and
   * then, rather than bookkeeping on every use).
   */
  #evict(): void {
    const oldestFirst = [...this.#slots].sort((a, b) => a[1].used - b[1].used)
    for (const [slot, place] of oldestFirst) {
      if (this.#bytes <= this.maxBytes * 0.75) break
      this.#slots.delete(slot)
      for (const gone of place.parts) this.#bytes -= gone.bytes.length
    }
  }

  clear(): void {
    this.#slots.clear()
    this.#bytes = 0
    this.streaks.clear()
  }

  /** Bytes held. */
  get size(): number { return this.#bytes }

  /** Lookups that found a part, and that did not, since the process started (`/metrics`). */
  get hits(): number { return this.#hits }
  get misses(): number { return this.#misses }
}

interface Slot<Part> { parts: Part[]; used: number }
