import { ClientBody } from './client-body.ts'
import { jsonBytes } from './json-bytes.ts'
import { turnCache } from './caches.ts'

/** How a body is written when it is written anew: whose it is (the client key) and the client's long strings. */
export interface BodyWriting {
  /** The client key: parts written for its earlier requests may be copied, never another key's. */
  scope?: string
  /** The client's body: its long strings (core/json/raw-strings.ts) are copied from its bytes instead of escaped again. */
  client?: ClientBody
}

/**
 * The JSON body of an upstream request: one handle, read, replaced or edited, and written to bytes once
 * after every `before-upstream` hook. A body nobody reads or replaces goes upstream as the client's own
 * bytes (a same-format request is never parsed or serialized again for it); once read, it is written
 * from its value, whose bytes mean what `JSON.stringify` of it means.
 */
export class JsonBody {
  #value: Record<string, unknown> | undefined
  /** While set, the body is the client's bytes (with `#leading` in front). */
  #client: ClientBody | undefined
  #leading: Record<string, unknown> | undefined
  #clientBytes: Buffer | undefined
  #written: Buffer | undefined
  readonly #writing: BodyWriting

  constructor(value: Record<string, unknown> | ClientBody, writing: BodyWriting = {}) {
    if (value instanceof ClientBody) this.#client = value
    else this.#value = value
    this.#writing = value instanceof ClientBody ? { client: value, ...writing } : writing
  }

  /**
   * The body's value. Read it, never change it in place (it may be the client's parsed body, which a
   * retry translates again): change it with `edit` or `replace`. A read counts as a change: the body is
   * written from its value from then on.
   */
  read(): Record<string, unknown> {
    const client = this.#client
    if (client) {
      // The client's object with the fields put in front: a copy, so the client's parse stays its own.
      this.#value = this.#leading ? { ...this.#leading, ...client.object() } : client.object()
      this.#client = undefined
      this.#clientBytes = undefined
    }
    this.#written = undefined
    return this.#value!
  }

  /** A new value for the body. */
  replace(value: Record<string, unknown>): this {
    this.#client = undefined
    this.#clientBytes = undefined
    this.#written = undefined
    this.#value = value
    return this
  }

  /**
   * Changes the body: `change` gets a copy of its top level (its own to change; the values under it are
   * shared: replace them, never change them in place) and may return another object instead.
   */
  edit(change: (body: Record<string, unknown>) => Record<string, unknown>): this
  edit(change: (body: Record<string, unknown>) => void): this
  edit(change: (body: Record<string, unknown>) => unknown): this {
    const copy = { ...this.read() }
    const out = change(copy)
    return this.replace(out && typeof out === 'object' ? out as Record<string, unknown> : copy)
  }

  /**
   * Sets a top-level field. On a body still sent as the client's bytes that do not hold the key, the
   * field is written in front of them, nothing is parsed.
   */
  set(key: string, value: unknown): this {
    const client = this.#client
    if (client && client.has(key) === false) {
      this.#leading = { ...this.#leading, [key]: value }
      this.#clientBytes = withLeadingBytes(this.#clientBytes ?? client.bytes, key, value)
      return this
    }
    return this.edit(body => { body[key] = value })
  }

  /** Whether the body still goes as the client's own bytes (nobody read or replaced it). */
  get asClientSent(): boolean {
    return this.#client !== undefined
  }

  /**
   * Lets go of the bytes written from the value (a later `bytes()` writes them again, the same). The sender
   * calls it for a large body it hands over to be read once: undici would keep it until the answer ends.
   */
  forgetWritten(): void {
    this.#written = undefined
  }

  /** The bytes sent upstream: the client's own while nobody read or replaced the body, else written once from its value. */
  bytes(): Buffer {
    if (this.#client) return this.#clientBytes ?? this.#client.bytes
    return this.#written ??= jsonBytes(this.#value, this.#writing.client?.rawStrings, turnCache, this.#writing.scope)
  }
}

/** JSON object bytes with `"field":value` written first (the client's text untouched after it). */
export function withLeadingBytes(bytes: Buffer, field: string, value: unknown): Buffer {
  const open = bytes.indexOf(0x7b)
  let next = open + 1
  while (next < bytes.length && (bytes[next] === 0x20 || bytes[next] === 0x0a || bytes[next] === 0x0d || bytes[next] === 0x09)) next++
  const empty = bytes[next] === 0x7d
  const inserted = Buffer.from(`${JSON.stringify(field)}:${JSON.stringify(value)}${empty ? '' : ','}`, 'utf8')
  return Buffer.concat([bytes.subarray(0, open + 1), inserted, bytes.subarray(open + 1)])
}
