/**
 * Recent parts of bodies by their place: a group (a client key's `messages`, `tools`, or its bodies
 * themselves) and an index in it (`-1` for the group's value as a whole, `i` for element `i` of a list).
 * A few parts per place, newest first, under a byte budget. Past the budget the groups used longest ago
 * go first, so with many clients at once the active ones keep theirs. What the part caches share
 * (core/json/json-part-cache.ts, parsed-part-cache.ts).
 *
 * Places are found by the group's name once and then by index: a name per element (`messages.17`)
 * cost a string built and hashed per lookup, ~135 ns, 140 times per translated agent request.
 */
/** A byte budget several caches share (core/json/caches.ts): each evicts its own oldest groups when the sum is over. */
export interface CacheBudget { maxBytes: number; bytes: number }

export class SlotCache<Part extends { bytes: Buffer }> {
  readonly #groups = new Map<string, Group<Part>>()
  #bytes = 0
  /** Counts uses: a group's `used` says when it was last found in or added to. */
  #clock = 0
  #hits = 0
  #misses = 0

  /**
   * @param budget bytes kept at most, with the caches that share it (what the parts hold in JS objects
   *   costs about as much again); a budget of 0 keeps nothing.
   * @param perSlot parts kept for one place (several conversations at once).
   */
  constructor(readonly budget: CacheBudget = { maxBytes: 8 * 1024 * 1024, bytes: 0 }, readonly perSlot = 8) {}

  /** Whether the budget lets anything be kept. */
  get enabled(): boolean { return this.budget.maxBytes > 0 }

  /** The first part at place `index` of `group` that `matches` (it moves to the front). */
  protected findWhere(group: string, index: number, matches: (part: Part) => boolean): Part | undefined {
    const found = this.#groups.get(group)
    const parts = found?.places[index + 1]
    if (parts) {
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i]!
        if (!matches(part)) continue
        if (i) {
          parts.splice(i, 1)
          parts.unshift(part)
        }
        found!.used = ++this.#clock
        this.#hits++
        return part
      }
    }
    this.#misses++
    return undefined
  }

  protected add(group: string, index: number, part: Part): void {
    if (!this.enabled) return
    let found = this.#groups.get(group)
    if (!found) this.#groups.set(group, found = { places: [], used: 0, bytes: 0 })
    found.used = ++this.#clock
    const parts = found.places[index + 1] ??= []
    parts.unshift(part)
    this.#count(found, part.bytes.length)
    if (parts.length > this.perSlot) this.#count(found, -parts.pop()!.bytes.length)
    if (this.budget.bytes > this.budget.maxBytes) this.#evict()
  }

  /**
   * The oldest part at place `index` of `group` when the place is full and it `fits`, moved to the front
   * to be refilled by the caller (a part whose buffer is reused instead of allocated again: its byte
   * count must not change).
   */
  protected recycle(group: string, index: number, fits: (part: Part) => boolean): Part | undefined {
    const found = this.#groups.get(group)
    const parts = found?.places[index + 1]
    if (!parts || parts.length < this.perSlot || !fits(parts.at(-1)!)) return undefined
    const part = parts.pop()!
    parts.unshift(part)
    found!.used = ++this.#clock
    return part
  }

  #count(group: Group<Part>, bytes: number): void {
    group.bytes += bytes
    this.#bytes += bytes
    this.budget.bytes += bytes
  }

  /**
   * Over budget: this cache's groups used longest ago go, down to three quarters of the budget (one sort
   * now and then, rather than bookkeeping on every use).
   */
  #evict(): void {
    const oldestFirst = [...this.#groups].sort((a, b) => a[1].used - b[1].used)
    for (const [name, group] of oldestFirst) {
      if (this.budget.bytes <= this.budget.maxBytes * 0.75) break
      this.#groups.delete(name)
      this.#bytes -= group.bytes
      this.budget.bytes -= group.bytes
    }
  }

  clear(): void {
    this.#groups.clear()
    this.budget.bytes -= this.#bytes
    this.#bytes = 0
  }

  /** Bytes held. */
  get size(): number { return this.#bytes }

  /** Lookups that found a part, and that did not, since the process started (`/metrics`). */
  get hits(): number { return this.#hits }
  get misses(): number { return this.#misses }
}

/** A group's places (index + 1: place 0 is the group's value as a whole), newest part first in each. */
interface Group<Part> { places: Array<Part[] | undefined>; used: number; bytes: number }
