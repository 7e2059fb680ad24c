import { isUtf8 } from 'node:buffer'
import type { LongString } from './turn-cache.ts'

/** A client body's long strings and their spelling in its bytes, copied instead of escaped when written again; matched by value (`===`). */
export class RawStrings {
  readonly #usable: boolean // bad UTF-8 was read as U+FFFD: copying the bytes would send something else
  readonly #strings: LongString[] = []

  constructor(readonly bytes: Buffer) { this.#usable = isUtf8(bytes) }

  get size(): number { return this.#strings.length }

  /** Note that the string token at `[start, end)` (quotes included) means `value`. */
  add(value: string, start: number, end: number): void {
    if (this.#usable) this.#strings.push({ value, start, end })
  }

  /** The client's JSON spelling of `value` (a view of its bytes, quotes included; the last noted of equal ones), or undefined. */
  spelling(value: string): Buffer | undefined {
    for (let i = this.#strings.length - 1; i >= 0; i--) {
      const { value: noted, start, end } = this.#strings[i]!
      if (noted.length === value.length && noted === value) return this.bytes.subarray(start, end)
    }
    return undefined
  }

  entry(index: number): Readonly<LongString> { return this.#strings[index]! }
}
