import { isUtf8 } from 'node:buffer'

/**
 * The long strings of a client's body and their spelling in its bytes: writing one again copies the
 * bytes instead of escaping it (JSON.stringify writes escape-heavy text at ~250 MB/s here). A client's
 * spelling means the same wherever the string goes. Matched by value (`===`, in practice the very string
 * the parse made), looked up by length first; a string a codec or hook made anew is written by JSON.stringify.
 */
export class RawStrings {
  readonly #bytes: Buffer
  /** Bytes that are not valid UTF-8 were read as replacement characters: copying them would send something else. */
  readonly #usable: boolean
  /** Length in UTF-16 units -> index of the entry (the last noted with that length; the others chained). */
  readonly #byLength = new Map<number, number>()
  readonly #strings: string[] = []
  readonly #starts: number[] = []
  readonly #ends: number[] = []
  readonly #next: number[] = []

  constructor(bytes: Buffer) {
    this.#bytes = bytes
    this.#usable = isUtf8(bytes)
  }

  get size(): number { return this.#strings.length }

  /** Note that the JSON string token at `[start, end)` of the bytes (quotes included) means `value`. */
  add(value: string, start: number, end: number): void {
    if (!this.#usable) return
    const index = this.#strings.length
    this.#strings.push(value)
    this.#starts.push(start)
    this.#ends.push(end)
    this.#next.push(this.#byLength.get(value.length) ?? -1)
    this.#byLength.set(value.length, index)
  }

  /** Which noted string `value` is (an index for `byteLength` and `copy`), or -1. */
  find(value: string): number {
    for (let at = this.#byLength.get(value.length) ?? -1; at !== -1; at = this.#next[at]!) {
      if (this.#strings[at] === value) return at
    }
    return -1
  }

  /** The client's JSON spelling of `value` (a view of its bytes, quotes included), or undefined. */
  spelling(value: string): Buffer | undefined {
    const at = this.find(value)
    return at === -1 ? undefined : this.spellingAt(at)
  }

  /** The client's JSON spelling of noted string `index` (a view of its bytes, quotes included). */
  spellingAt(index: number): Buffer {
    return this.#bytes.subarray(this.#starts[index]!, this.#ends[index]!)
  }

  /** Noted string `index`: its value and where its spelling is. */
  entry(index: number): { value: string; start: number; end: number } {
    return { value: this.#strings[index]!, start: this.#starts[index]!, end: this.#ends[index]! }
  }

  /** Bytes of the spelling of string `index`. */
  byteLength(index: number): number {
    return this.#ends[index]! - this.#starts[index]!
  }

  /** Copies the spelling of string `index` into `out` at `at`; the bytes written. */
  copy(index: number, out: Buffer, at: number): number {
    return this.#bytes.copy(out, at, this.#starts[index]!, this.#ends[index]!)
  }
}
