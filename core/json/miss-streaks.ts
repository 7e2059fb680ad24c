/**
 * When a part cache stops paying: a group of parts (one client key's `messages`) whose bodies found
 * nothing in the cache several times in a row is not looked up for a while, except for a probe now and
 * then. Traffic that never repeats (every message new) then costs what it cost without a cache: looking
 * up, copying and keeping each part of it cost more than parsing or writing it (150 KB body, every
 * message changed: 428 µs to parse without the cache, 908 with it).
 */
export class MissStreaks {
  readonly #streaks = new Map<string, number>()

  /** @param after bodies in a row with no hit before a group is skipped; @param probeEvery one in this many skipped bodies looks up again. */
  constructor(readonly after = 3, readonly probeEvery = 8) {}

  /** Whether this body's parts of `group` are worth looking up (a body not looked up counts as a miss). */
  worthTrying(group: string): boolean {
    const streak = this.#streaks.get(group) ?? 0
    if (streak < this.after) return true
    const probe = (streak - this.after) % this.probeEvery === this.probeEvery - 1
    if (!probe) this.#streaks.set(group, streak + 1)
    return probe
  }

  /** What a body's lookups of `group` found. */
  report(group: string, hits: number): void {
    if (hits) {
      this.#streaks.delete(group)
      return
    }
    // Bounded: past this many groups (client keys x top-level keys), it starts over.
    if (this.#streaks.size >= 10_000 && !this.#streaks.has(group)) this.#streaks.clear()
    this.#streaks.set(group, (this.#streaks.get(group) ?? 0) + 1)
  }

  clear(): void { this.#streaks.clear() }
}
