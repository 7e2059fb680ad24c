import type { WireFormat } from './codec.ts'
import type { ThinkingPart } from './types.ts'

/**
 * Reasoning signatures across formats (docs/translation.md, "Reasoning and signatures").
 *
 * A signature is only valid for the vendor that made it, so it travels with its origin (the wire format
 * that signed it). A client of the same format gets the vendor's bytes unchanged; a client of another
 * format gets them in its own opaque slot (thinking `signature`, `encrypted_content`, `thoughtSignature`)
 * wrapped in an envelope that names the origin, so its replay can be given back to that vendor only.
 *
 * The envelope is base64 itself (magic + base64 of JSON), so SDKs that hold these slots as bytes
 * (google-genai's `thought_signature`) decode and re-encode it unchanged.
 */
const magic = 'bXBzaWcx' // base64 of 'mpsig1': 6 bytes, so it never pads and can prefix more base64

/** `signature` is '' for thinking that was never signed (then `origin` may be '' too). */
export interface SignatureSlot { signature: string; origin: string; redacted?: boolean }

const formats = new Set<string>(['chat', 'responses', 'messages', 'generate'])

/**
 * What a client of `format` gets in its slot for a thinking part. Unsigned thinking gets an envelope
 * with an empty signature when `mark` is set: formats whose replay needs a slot value (a messages
 * thinking block) or whose replay must be recognisable as ours (a responses reasoning item, a
 * generateContent functionCall) carry it, so a later request to that format's own vendor is vetted.
 */
export function signatureToClient(format: WireFormat, part: Pick<ThinkingPart, 'signature' | 'origin' | 'redacted'>, mark = false): string | undefined {
  if (part.signature && part.origin === format && (!part.redacted || format === 'messages')) return part.signature
  if (!part.signature && !mark) return undefined
  const payload: unknown[] = [part.origin ?? '', part.signature ?? '']
  if (part.redacted) payload.push(1)
  return magic + Buffer.from(JSON.stringify(payload), 'utf8').toString('base64')
}

/**
 * A client's slot value -> the signature and who made it. A value without the envelope is the
 * client format's own vendor's (a same-format answer passed through, or the client's own history).
 */
export function signatureFromClient(format: WireFormat, value: string): SignatureSlot {
  if (!value.startsWith(magic)) return { signature: value, origin: format }
  try {
    const [origin, signature, redacted] = JSON.parse(Buffer.from(value.slice(magic.length), 'base64').toString('utf8')) as unknown[]
    if (typeof origin === 'string' && typeof signature === 'string' && (formats.has(origin) || !signature)) {
      return redacted === 1 ? { signature, origin, redacted: true } : { signature, origin }
    }
  } catch {}
  // A damaged envelope belongs to no vendor: nobody can verify it.
  return { signature: value, origin: 'unknown' }
}

/** Whether a slot value is one of our envelopes (an upstream of the client's own format cannot verify it). */
export const isEnvelope = (value: unknown): boolean => typeof value === 'string' && value.startsWith(magic)

/** The signature an upstream of `format` may receive: its own vendor's, never a foreign one. */
export function signatureToUpstream(format: WireFormat, part: Pick<ThinkingPart, 'signature' | 'origin'>): string | undefined {
  return part.signature && part.origin === format ? part.signature : undefined
}

/** The envelope's marker (tests look for it in what goes upstream). */
export const envelopeMarker = magic
