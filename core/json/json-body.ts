import { ClientBody } from './client-body.ts'
import { jsonBytes } from './json-bytes.ts'
import { turnCache } from './turn-cache.ts'
import { setOwn } from './plain-json.ts'
import type { RawStrings } from './raw-strings.ts'
import type { DerivedNotes } from './derived-strings.ts'

/** How a body is written anew: for which client key, and from which client body's long strings. */
export interface BodyWriting { scope?: string; client?: ClientBody }

/** An upstream request's JSON body, written once after every `before-upstream` hook; nobody read or replaced it: the client's bytes go. */
export class JsonBody {
  #value: Record<string, unknown> | undefined
  #client: ClientBody | undefined
  #added: Record<string, unknown> | undefined // fields `set` adds after the client's bytes
  #bytes: Buffer | undefined // written once: the client's bytes with `#added`, or the value's
  #strings: RawStrings | undefined | null = null // the client's long strings at the first write (null: not yet): written again, the same bytes
  readonly #derived: DerivedNotes = [] // the data URLs and base64 it was written with (json-bytes.ts)
  readonly #writing: BodyWriting

  constructor(value: Record<string, unknown> | ClientBody, writing: BodyWriting = {}) {
    if (value instanceof ClientBody) this.#client = value
    else this.#value = value
    this.#writing = value instanceof ClientBody ? { client: value, ...writing } : writing
  }

  /** The value: never change it in place (a retry translates the client's parse again); use `edit` or `replace`. */
  read(): Record<string, unknown> {
    const client = this.#client
    this.replace(!client ? this.#value! : this.#added ? { ...client.object(), ...this.#added } : client.object())
    return this.#value!
  }

  replace(value: Record<string, unknown>): this {
    this.#client = this.#bytes = undefined
    this.#value = value
    return this
  }

  /** `change` gets a copy of the top level (values under it are shared: replace, never mutate them) or returns another. */
  edit(change: (body: Record<string, unknown>) => unknown): this {
    const copy = { ...this.read() }
    const out = change(copy)
    return this.replace(out && typeof out === 'object' ? out as Record<string, unknown> : copy)
  }

  /** Sets a top-level field as JSON.parse makes one (`__proto__` own); client bytes without the key get it after them at `bytes()`, unparsed. */
  set(key: string, value: unknown): this {
    if (this.#client?.has(key) !== false) return this.edit(body => { setOwn(body, key, value) })
    setOwn(this.#added ??= {}, key, value)
    this.#bytes = undefined
    return this
  }

  get asClientSent(): boolean { return this.#client !== undefined }

  /** Lets go of the written bytes (a later `bytes()` writes them again): undici would hold them until the answer ends. */
  forgetWritten(): void { if (!this.#client) this.#bytes = undefined }

  /** The bytes sent upstream: the client's own while nobody read or replaced the body, else written once. */
  bytes(): Buffer {
    if (this.#client) return this.#added ? this.#bytes ??= withFieldsBytes(this.#client.bytes, this.#added) : this.#client.bytes
    if (this.#strings === null) this.#strings = this.#writing.client?.rawStrings
    return this.#bytes ??= jsonBytes(this.#value, this.#strings, turnCache, this.#writing.scope, this.#derived)
  }
}

/** `bytes` with `fields` after the client's last key: what JSON.parse, the assignments and JSON.stringify give (toJSON's key, undefined left out). */
export function withFieldsBytes(bytes: Buffer, fields: Record<string, unknown>): Buffer {
  const text = JSON.stringify(fields)
  if (text === '{}') return bytes
  // A checked body: its last byte other than white space closes the object.
  const close = bytes.lastIndexOf(0x7d)
  let last = close - 1
  while (last >= 0 && (bytes[last] === 0x20 || bytes[last] === 0x0a || bytes[last] === 0x0d || bytes[last] === 0x09)) last--
  const inserted = Buffer.from(`${bytes[last] === 0x7b ? '' : ','}${text.slice(1, -1)}`, 'utf8')
  return Buffer.concat([bytes.subarray(0, close), inserted, bytes.subarray(close)])
}
