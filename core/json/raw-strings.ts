import { isUtf8 } from 'node:buffer'

/**
 * The long strings of a client's body and their spelling in its bytes: writing one again copies the bytes instead of
 * escaping it. Matched by value (`===`, in practice the very string the parse made), looked up by length first.
 */
export class RawStrings {
  readonly #bytes: Buffer
  readonly #usable: boolean // bad UTF-8 was read as U+FFFD: copying the bytes would send something else
  readonly #byLength = new Map<number, number>()
  readonly #strings: string[] = []
  readonly #starts: number[] = []
  readonly #ends: number[] = []
  readonly #next: number[] = [] // `#byLength` holds each length's last entry; the others chained here

  constructor(bytes: Buffer) {
    this.#bytes = bytes
    this.#usable = isUtf8(bytes)
  }

  get size(): number { return this.#strings.length }

  /** Note that the string token at `[start, end)` (quotes included) means `value`. */
  add(value: string, start: number, end: number): void {
    if (!this.#usable) return
    const index = this.#strings.length
    this.#strings.push(value)
    this.#starts.push(start)
    this.#ends.push(end)
    this.#next.push(this.#byLength.get(value.length) ?? -1)
    this.#byLength.set(value.length, index)
  }

  /** Which noted string `value` is, or -1. */
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

  /** The spelling of noted string `index`. */
  spellingAt(index: number): Buffer {
    return this.#bytes.subarray(this.#starts[index]!, this.#ends[index]!)
  }

  entry(index: number): { value: string; start: number; end: number } {
    return { value: this.#strings[index]!, start: this.#starts[index]!, end: this.#ends[index]! }
  }

  byteLength(index: number): number {
    return this.#ends[index]! - this.#starts[index]!
  }

  copy(index: number, out: Buffer, at: number): number {
    return this.#bytes.copy(out, at, this.#starts[index]!, this.#ends[index]!)
  }
}
