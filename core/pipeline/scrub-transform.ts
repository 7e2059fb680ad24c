import type { Credential } from '../provider/credential.ts'
import { encodedForms, maskSecret } from '../provider/credential.ts'
import type { StreamTransform } from './stream-transform.ts'

interface Form { form: Buffer; mask: Buffer }

/** The byte forms of a credential's secrets (plain and encoded, as maskValues finds them) and their masks. */
export function credentialForms(credential: Credential): Form[] {
  const forms: Form[] = []
  for (const secret of [credential.apiKey, credential.accessToken]) {
    if (!secret || secret.length < 4) continue
    const mask = Buffer.from(maskSecret(secret))
    for (const form of [secret, ...encodedForms(secret)]) forms.push({ form: Buffer.from(form), mask })
  }
  return forms
}

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
 * The same transform, fed upstream chunks with the credential's secrets masked: an upstream may quote the
 * key it was sent in a 200 stream (in text or in an event). A chunk ending with what could be the start
 * of a secret keeps those bytes until the next chunk, so a secret cut between chunks is masked too.
 */
class ScrubbedTransform implements StreamTransform {
  #held: Buffer | undefined
  constructor(private readonly transform: StreamTransform, private readonly forms: readonly Form[]) {}

  get primed(): boolean { return this.transform.primed }
  get usage(): StreamTransform['usage'] { return this.transform.usage }
  get cut(): string | undefined { return this.transform.cut }
  get upstreamError(): string | undefined { return this.transform.upstreamError }
  get delivered(): number { return this.transform.delivered }

  push(chunk: Uint8Array): Uint8Array | undefined {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const data = maskBytes(this.#held ? Buffer.concat([this.#held, bytes]) : bytes, this.forms)
    const keep = openTail(data, this.forms)
    this.#held = keep ? Buffer.from(data.subarray(data.length - keep)) : undefined
    return keep === data.length ? undefined : this.transform.push(keep ? data.subarray(0, data.length - keep) : data)
  }

  end(): Uint8Array | undefined {
    const held = this.#held
    this.#held = undefined
    const last = held && this.transform.push(held)
    const closing = this.transform.end()
    return last && closing ? Buffer.concat([last, closing]) : last || closing
  }

  fail(message: string, status?: number): Uint8Array | undefined { return this.transform.fail(message, status) }
  settle(): boolean { return this.transform.settle() }
}

export function scrubTransform(transform: StreamTransform, credential: Credential): StreamTransform {
  const forms = credentialForms(credential)
  return forms.length ? new ScrubbedTransform(transform, forms) : transform
}
