import { ClientBody } from './client-body.ts'
import { jsonBytes } from './json-bytes.ts'
import { turnCache } from './turn-cache.ts'
import { skipSpace } from './body-scan.ts'

/** How a body is written anew: for which client key, and from which client body's long strings. */
export interface BodyWriting { scope?: string; client?: ClientBody }

/** An upstream request's JSON body, written once after every `before-upstream` hook; nobody read or replaced it: the client's bytes go. */
export class JsonBody {
  #value: Record<string, unknown> | undefined
  #client: ClientBody | undefined
  #leading: Record<string, unknown> | undefined // fields `set` wrote in front of the client's bytes
  #clientBytes: Buffer | undefined
  #written: Buffer | undefined
  readonly #writing: BodyWriting

  constructor(value: Record<string, unknown> | ClientBody, writing: BodyWriting = {}) {
    if (value instanceof ClientBody) this.#client = value
    else this.#value = value
    this.#writing = value instanceof ClientBody ? { client: value, ...writing } : writing
  }

  /** The value: never change it in place (a retry translates the client's parse again); use `edit` or `replace`. */
  read(): Record<string, unknown> {
    const client = this.#client
    if (client) {
      this.#value = this.#leading ? { ...this.#leading, ...client.object() } : client.object()
      this.#client = undefined
      this.#clientBytes = undefined
    }
    this.#written = undefined
    return this.#value!
  }

  replace(value: Record<string, unknown>): this {
    this.#client = undefined
    this.#clientBytes = undefined
    this.#written = undefined
    this.#value = value
    return this
  }

  /** `change` gets a copy of the top level (values under it are shared: replace, never mutate them) or returns another. */
  edit(change: (body: Record<string, unknown>) => Record<string, unknown>): this
  edit(change: (body: Record<string, unknown>) => void): this
  edit(change: (body: Record<string, unknown>) => unknown): this {
    const copy = { ...this.read() }
    const out = change(copy)
    return this.replace(out && typeof out === 'object' ? out as Record<string, unknown> : copy)
  }

  /** Sets a top-level field; on client bytes without that key, written in front of them, nothing parsed. */
  set(key: string, value: unknown): this {
    const client = this.#client
    if (client && client.has(key) === false) {
      this.#leading = { ...this.#leading, [key]: value }
      this.#clientBytes = withLeadingBytes(this.#clientBytes ?? client.bytes, key, value)
      return this
    }
    return this.edit(body => { body[key] = value })
  }

  get asClientSent(): boolean { return this.#client !== undefined }

  /** Lets go of the written bytes (a later `bytes()` writes them again): undici would hold them until the answer ends. */
  forgetWritten(): void { this.#written = undefined }

  /** The bytes sent upstream: the client's own while nobody read or replaced the body, else written once. */
  bytes(): Buffer {
    if (this.#client) return this.#clientBytes ?? this.#client.bytes
    return this.#written ??= jsonBytes(this.#value, this.#writing.client?.rawStrings, turnCache, this.#writing.scope)
  }
}

/** JSON object bytes with `"field":value` written first, the client's text untouched after it. */
export function withLeadingBytes(bytes: Buffer, field: string, value: unknown): Buffer {
  const open = bytes.indexOf(0x7b)
  const empty = bytes[skipSpace(bytes, open + 1)] === 0x7d
  const inserted = Buffer.from(`${JSON.stringify(field)}:${JSON.stringify(value)}${empty ? '' : ','}`, 'utf8')
  return Buffer.concat([bytes.subarray(0, open + 1), inserted, bytes.subarray(open + 1)])
}
