import { streamEvents, type TappedStream } from './capture.ts'
import type { FlightRecord, Held, RecordedAttempt, RecordedMessage, StoredBody, StoredRecord, StoredStream } from './types.ts'

/**
 * How a record is stored: `MPR1`, a 4-byte length, the record as JSON with every body and stream a
 * reference into its blobs, then the blobs' bytes.
 *
 * Why not the record as one JSON text: an agent's request is 80-150 KB and a record holds it as received,
 * as sent (usually the same bytes) and both sides of its stream. Decoding those bytes to strings, escaping
 * them into JSON and keeping them on the heap until written cost 8x the request itself (an 80 KB request:
 * 792 µs of CPU unrecorded, 6,543 µs recorded). Here the client's Buffer, the tapped stream chunks and the
 * sent body are kept by reference, the same bytes are one blob (a same-format request is sent as it came,
 * its stream passes unchanged), and nothing is copied but what the storage itself needs. Decoding,
 * cutting streams into events and masking with every known secret happen when a record is read, off the
 * request path.
 *
 * Masking when recorded covers what only this request knows: headers by name (capture.ts), the record's
 * own fields by the config's and the flight's secrets (store.ts), and the client's key in the bodies and
 * streams (a client may paste it into a prompt and the model repeat it; a plain key is not known later:
 * client-keys keeps hashes). When read, every blob is masked with every secret the config and the
 * credentials hold.
 */
const magic = Buffer.from('MPR1')

interface BlobInfo { size: number; truncated?: number }

/** A body (one piece, cut at the cap) or a stream (its chunks as tapped). */
interface Blob { parts: Uint8Array[]; body: boolean; size: number }

const bufferOf = (bytes: Uint8Array) => Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
const sizeOf = (parts: readonly Uint8Array[]) => parts.reduce((sum, part) => sum + part.byteLength, 0)

/** Whether two chunk lists hold the same bytes, compared in place (no concat). */
export function sameBytes(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  if (sizeOf(a) !== sizeOf(b)) return false
  let i = 0, j = 0, at = 0, bt = 0
  while (i < a.length && j < b.length) {
    const x = a[i]!, y = b[j]!
    const n = Math.min(x.byteLength - at, y.byteLength - bt)
    if (n > 0 && !(x === y && at === bt) && bufferOf(x).compare(y, bt, bt + n, at, at + n) !== 0) return false
    at += n
    bt += n
    if (at === x.byteLength) { i++; at = 0 }
    if (bt === y.byteLength) { j++; bt = 0 }
  }
  return true
}

/** A mask as long as the secret (`sk-a*****7890`; all stars under 16 bytes): offsets in the blob stay true. */
function sameLengthMask(secret: Buffer): Buffer {
  const mask = Buffer.alloc(secret.length, '*')
  if (secret.length >= 16) {
    secret.copy(mask, 0, 0, 4)
    secret.copy(mask, secret.length - 4, secret.length - 4)
  }
  return mask
}

/** Each secret found in `source` masked in `target` (the copy of its first `target.length` bytes). */
function maskInto(target: Buffer, source: Buffer, secrets: readonly Buffer[]): void {
  for (const secret of secrets) {
    for (let at = source.indexOf(secret); at !== -1 && at < target.length; at = source.indexOf(secret, at + secret.length)) {
      sameLengthMask(secret).copy(target, at, 0, Math.min(secret.length, target.length - at))
    }
  }
}

/** The byte blobs of one record while it is built: each distinct body or stream once, by reference. */
export class RecordBlobs {
  private readonly blobs: Blob[] = []
  private readonly known = new Map<Uint8Array | string, number>()

  constructor(private readonly cap: number) {}

  /** A body; the same Buffer or string given again is the same blob. */
  body(value: Uint8Array | string | undefined): StoredBody | undefined {
    if (value === undefined) return undefined
    let blob = this.known.get(value)
    if (blob === undefined) {
      const bytes = typeof value === 'string' ? Buffer.from(value) : value
      blob = this.blobs.push({ parts: [bytes], body: true, size: bytes.byteLength }) - 1
      this.known.set(value, blob)
    }
    return { blob }
  }

  /** A tapped stream; the same bytes as a stream already here (a same-format stream, both sides) are its blob. */
  stream(tapped: TappedStream, sse: boolean): StoredStream {
    const chunks: number[] = []
    let end = 0
    tapped.chunks.forEach((chunk, i) => chunks.push(end += chunk.byteLength, tapped.times[i]!))
    let blob = this.blobs.findIndex(other => !other.body && other.size === end && sameBytes(other.parts, tapped.chunks))
    if (blob === -1) blob = this.blobs.push({ parts: tapped.chunks, body: false, size: end }) - 1
    return { blob, chunks, sse, ...(tapped.omitted && { omitted: tapped.omitted }) }
  }

  /**
   * The stored form as the list of its pieces: the bodies' own bytes (a body that holds a secret is the
   * only one copied), cut at the cap after they are searched so no half secret is left at the cut, and
   * each stream joined once (a secret may straddle two chunks) unless there is nothing to search for.
   * Secrets shorter than 4 bytes are not searched (they would match everywhere).
   */
  pack(recordJson: string, secrets: readonly Buffer[]): Uint8Array[] {
    const infos = this.blobs.map((blob): BlobInfo => blob.body && blob.size > this.cap ? { size: this.cap, truncated: blob.size - this.cap } : { size: blob.size })
    // The record's JSON as it is (already serialized to be checked for secrets), not serialized again.
    const head = Buffer.from(`{"blobs":${JSON.stringify(infos)},"record":${recordJson}}`)
    const prefix = Buffer.allocUnsafe(8)
    magic.copy(prefix, 0)
    prefix.writeUInt32BE(head.byteLength, magic.length)
    const parts: Uint8Array[] = [prefix, head]
    const searched = secrets.filter(secret => secret.length >= 4)
    this.blobs.forEach((blob, i) => {
      if (!blob.body) {
        if (!searched.length) { parts.push(...blob.parts); return }
        // A stream is searched joined (a secret may straddle two chunks): one copy of it, masked in place.
        // One chunk alone is not copied to be searched, only to be masked (it is the upstream's own Buffer).
        const joined = joinParts(blob.parts)
        if (!searched.some(secret => joined.includes(secret))) { parts.push(joined); return }
        const masked = blob.parts.length === 1 ? Buffer.from(joined) : joined
        maskInto(masked, joined, searched)
        parts.push(masked)
        return
      }
      const source = bufferOf(blob.parts[0]!)
      const size = infos[i]!.size
      const cut = size < source.byteLength ? source.subarray(0, size) : source
      const found = searched.some((secret) => {
        const at = source.indexOf(secret)
        return at !== -1 && at < size
      })
      if (!found) { parts.push(cut); return }
      const masked = Buffer.from(cut)
      maskInto(masked, source, searched)
      parts.push(masked)
    })
    return parts
  }
}

/** Pieces as one Buffer (a storage that writes values whole). */
export const joinParts = (parts: readonly Uint8Array[]): Buffer => parts.length === 1 ? bufferOf(parts[0]!) : Buffer.concat(parts)

/** Each body and stream of a record, mapped. */
function mapHeld<A extends Held<unknown, unknown>, B extends Held<unknown, unknown>>(record: FlightRecord<A>, body: (body: A['body']) => B['body'], stream: (stream: A['stream']) => B['stream']): FlightRecord<B> {
  const message = <M extends RecordedMessage<A>>(m: M): Omit<M, 'body' | 'stream'> & RecordedMessage<B> => ({
    ...m,
    body: m.body === undefined ? undefined : body(m.body),
    stream: m.stream === undefined ? undefined : stream(m.stream),
  })
  const attempt = (a: RecordedAttempt<A>): RecordedAttempt<B> => ({ ...a, request: message(a.request), response: a.response && message(a.response) })
  return { ...record, client: { request: message(record.client.request), response: message(record.client.response) }, attempts: record.attempts.map(attempt) }
}

/** A stored record read back as the API shows it (text bodies, streams cut into events); a record stored as JSON by an earlier version as it is. */
export function unpackRecord(bytes: Buffer): FlightRecord | undefined {
  if (bytes.byteLength < 8 || !bytes.subarray(0, 4).equals(magic)) {
    try { return JSON.parse(bytes.toString('utf8')) as FlightRecord } catch { return undefined }
  }
  const headLength = bytes.readUInt32BE(4)
  let head: { blobs: BlobInfo[]; record: StoredRecord }
  // A record cut short (a crash mid-write on fs) reads as missing.
  try { head = JSON.parse(bytes.toString('utf8', 8, 8 + headLength)) } catch { return undefined }
  const { blobs: infos, record } = head
  if (!Array.isArray(infos) || 8 + headLength + infos.reduce((sum, info) => sum + info.size, 0) > bytes.byteLength) return undefined
  const blobs: Buffer[] = []
  let at = 8 + headLength
  for (const info of infos) blobs.push(bytes.subarray(at, at += info.size))
  return mapHeld(record, (ref) => {
    const info = infos[ref.blob]
    return info?.truncated ? { text: blobs[ref.blob]!.toString('utf8'), truncated: info.truncated } : { text: blobs[ref.blob]?.toString('utf8') ?? '' }
  }, ref => ({ events: streamEvents(blobs[ref.blob] ?? Buffer.alloc(0), ref.chunks, ref.sse), ...(ref.omitted && { omitted: ref.omitted }) }))
}
