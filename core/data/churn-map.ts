/**
 * A map for entries that come and go with requests (holds, pending calls), when the map itself lives
 * as long as the process. Not a `Map`: V8 rehashes a Map or Set that keeps gaining and losing entries
 * every few dozen operations, and each retired table points at its successor. Once a full collection
 * has moved the current table to the old generation, that dead table keeps the next one alive through
 * young collections, that one the next, each with every entry it held: from then on everything that
 * passed through the map is promoted (measured: 3e6 add/delete pairs after one full collection, 3,214 ms
 * of scavenges with a Set, 197 ms with this, 137 ms with neither; docs/benchmarks.md). A dictionary-mode
 * object has no such chain.
 */
export class ChurnMap<V> {
  #entries: Record<string, V> = Object.create(null)
  #size = 0

  get size(): number { return this.#size }

  get(key: string | number): V | undefined {
    return this.#entries[key]
  }

  has(key: string | number): boolean {
    return key in this.#entries
  }

  set(key: string | number, value: V): void {
    if (!(key in this.#entries)) this.#size++
    this.#entries[key] = value
  }

  delete(key: string | number): boolean {
    if (!(key in this.#entries)) return false
    delete this.#entries[key]
    this.#size--
    return true
  }

  clear(): void {
    this.#entries = Object.create(null)
    this.#size = 0
  }

  /** Entries in no promised order (safe to delete from while iterating: it walks a copy of the keys). */
  *entries(): IterableIterator<[string, V]> {
    for (const key of Object.keys(this.#entries)) if (key in this.#entries) yield [key, this.#entries[key]!]
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value
  }
}
