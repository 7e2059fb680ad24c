import { StringDecoder } from 'node:string_decoder'

/**
 * The UTF-8 text of a byte stream, chunk by chunk, as `TextDecoder` with `stream: true` gives it. A
 * character split between chunks waits for the rest of its bytes, a leading BOM is dropped, and bytes
 * that are not UTF-8 become U+FFFD. Node's StringDecoder does the work: on a 30 KB stream answer,
 * TextDecoder took 35-43 µs and StringDecoder 8.
 */
export class Utf8Decoder {
  readonly #decoder = new StringDecoder('utf8')
  #atStart = true

  write(chunk: Uint8Array): string {
    return this.#dropBom(this.#decoder.write(chunk as Buffer))
  }

  /** What is left (an unfinished character becomes U+FFFD). */
  end(): string {
    return this.#dropBom(this.#decoder.end())
  }

  #dropBom(text: string): string {
    if (!this.#atStart || !text) return text
    this.#atStart = false
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  }
}
