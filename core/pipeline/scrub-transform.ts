import { Transform, type Readable } from 'node:stream'
import type { Credential } from '../provider/credential.ts'
import { credentialSecrets, encodedForms, maskSecret, textSpellings } from '../provider/credential.ts'
import type { StreamTransform } from './stream-transform.ts'

interface Form { form: Buffer; mask: Buffer }

/** The byte forms of secrets, each as `spellings` gives them, and their masks. */
function formsOf(secrets: ReadonlyArray<string | undefined>, spellings: (secret: string) => string[]): Form[] {
  const forms: Form[] = []
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue
    const mask = Buffer.from(maskSecret(secret))
    for (const form of spellings(secret)) forms.push({ form: Buffer.from(form), mask })
  }
  return forms
}

/** Plain and every encoded form, as maskValues finds them. */
const everyForm = (secret: string) => [secret, ...encodedForms(secret)]

function maskBytes(data: Buffer, forms: readonly Form[]): Buffer {
  for (const { form, mask } of forms) {
    let at = data.indexOf(form)
    if (at === -1) continue
    const parts: Buffer[] = []
    let from = 0
    for (; at !== -1; at = data.indexOf(form, from)) {
      parts.push(data.subarray(from, at), mask)
      from = at + form.length
    }
    parts.push(data.subarray(from))
    data = Buffer.concat(parts)
  }
  return data
}

/** How many bytes at the end of `data` could be the start of a form cut by the chunk's end. */
function openTail(data: Buffer, forms: readonly Form[]): number {
  let keep = 0
  for (const { form } of forms) {
    for (let at = data.indexOf(form[0]!, Math.max(0, data.length - form.length + 1)); at !== -1; at = data.indexOf(form[0]!, at + 1)) {
      const length = data.length - at
      // The leftmost start that matches is the longest.
      if (data.compare(form, 0, length, at) === 0) { keep = Math.max(keep, length); break }
    }
  }
  return keep
}

/**
 * Masks secrets in a byte stream, chunk by chunk. A chunk ending with what could be the start of a
 * secret keeps those bytes until the next chunk, so a secret cut between chunks is masked too.
 */
class ByteScrubber {
  #held: Buffer | undefined
  constructor(private readonly forms: readonly Form[]) {}

  /** The bytes that can go out now (possibly none). */
  push(chunk: Uint8Array): Buffer {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const data = maskBytes(this.#held ? Buffer.concat([this.#held, bytes]) : bytes, this.forms)
    const keep = openTail(data, this.forms)
    this.#held = keep ? Buffer.from(data.subarray(data.length - keep)) : undefined
    return keep ? data.subarray(0, data.length - keep) : data
  }

  /** What was held back, at the end of the stream. */
  end(): Buffer | undefined {
    const held = this.#held
    this.#held = undefined
    return held
  }
}

/** `source` with `secrets` masked in its bytes (an upstream answer piped as it is, e.g. the partner's). */
export function scrubReadable(source: Readable, secrets: ReadonlyArray<string | undefined>): Readable {
  const forms = formsOf(secrets, everyForm)
  if (!forms.length) return source
  const scrubber = new ByteScrubber(forms)
  const scrubbed = new Transform({
    transform(chunk: Buffer, _encoding, done) { done(null, scrubber.push(chunk)) },
    flush(done) { done(null, scrubber.end()) },
  })
  source.on('error', error => scrubbed.destroy(error))
  scrubbed.on('close', () => { if (!source.destroyed) source.destroy() })
  return source.pipe(scrubbed)
}

/**
 * The same transform, its output with the credential's secrets masked: an upstream may quote the key it
 * was sent in a 200 stream. Its output is whole events, so a secret within one is found whole. Only the
 * forms text spells it in: each form is a byte search on every event of every stream (~47 ns an event,
 * against ~55 for reading its usage), and base64 runs would add six or more.
 */
class MaskedTransform implements StreamTransform {
  constructor(private readonly transform: StreamTransform, private readonly forms: readonly Form[]) {}

  get primed(): boolean { return this.transform.primed }
  get complete(): boolean { return this.transform.complete }
  get usage(): StreamTransform['usage'] { return this.transform.usage }
  get cut(): string | undefined { return this.transform.cut }
  get upstreamError(): string | undefined { return this.transform.upstreamError }
  get delivered(): number { return this.transform.delivered }

  #masked(out: Uint8Array | undefined): Uint8Array | undefined {
    return out && maskBytes(Buffer.isBuffer(out) ? out : Buffer.from(out.buffer, out.byteOffset, out.byteLength), this.forms)
  }

  push(chunk: Uint8Array): Uint8Array | undefined { return this.#masked(this.transform.push(chunk)) }
  end(): Uint8Array | undefined { return this.#masked(this.transform.end()) }
  fail(message: string, status?: number): Uint8Array | undefined { return this.#masked(this.transform.fail(message, status)) }
  settle(): boolean { return this.transform.settle() }
}

/** `transform` with the credential's secrets masked in what it sends the client. */
export function maskedTransform(transform: StreamTransform, credential: Credential): StreamTransform {
  const forms = formsOf(credentialSecrets(credential), textSpellings)
  return forms.length ? new MaskedTransform(transform, forms) : transform
}
