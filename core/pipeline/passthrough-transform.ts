import type { StreamEncoder, WireCodec } from '../canonical/codec.ts'
import type { Usage } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import { firstEventError, openingEvent } from './first-event.ts'
import { lastEventEnd, trailingBlankLine } from '../framing/sse-bounds.ts'
import { UsageTap } from './usage-tap.ts'
import { isBlank, isWholeEvent } from './event-spans.ts'
import { anySpelling, escapedLetter, escapeRegExp, gap } from './stream-markers.ts'
import { clientAskedForUsage } from './usage-option.ts'

export const bytes = (text: string) => text ? Buffer.from(text, 'utf8') : undefined
const asBuffer = (chunk: Uint8Array) => Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)

/** A UTF-8 byte order mark a stream may start with: the SSE parser drops it (utf8-decoder.ts), so must the passthrough. */
const withoutBom = (bytes: Buffer) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes

/** Why a stream that did not reach its terminal event was cut: the same words on either path. */
export const cutMidEvent = 'the upstream stream ended mid-event'
export const cutBeforeEnd = 'the upstream stream ended before its last event'

/** How much of a stream's first chunk is decoded to find its first event. */
const headBytes = 4096

// The transforms are classes, not object literals with `get primed()`: a literal with its own accessor
// functions gets a hidden class of its own, which keeps the stream's whole state alive through young
// collections until a full one (docs/benchmarks.md, "object literals with getters").

/**
 * Same format: whole events pass through as the upstream's own bytes (no decode, no encode); only when
 * the client used an alias is the model name rewritten, in whole events (a cut at a blank line never
 * splits a UTF-8 character). A StreamTransform, unnamed here: stream-transform.ts, which hands it out as
 * one, imports this module.
 */
export class PassthroughTransform {
  primed = false
  complete = false
  cut: string | undefined = undefined
  #reads = 0
  /** Reads the stream as its format's decoder reads every event: usage, the terminal event, what was delivered. */
  readonly #tap: UsageTap | undefined
  /** Whole events only: a stream cut mid-event must not glue half a frame to the error frame after it. */
  #carry: Buffer | undefined
  /** Makes the format's error event should the stream fail (made then: most never do). */
  readonly #errorEncoder: (() => StreamEncoder) | undefined
  readonly #rename: { pattern: RegExp; anySpelling: RegExp; value: string } | undefined
  /** The format's codec (the upstream's and the client's): tells whether the first event is an error. */
  readonly #codec: WireCodec | undefined
  /** Whether the stream's first data event was looked at for an error (first-event.ts). */
  readonly #head = { seenFirst: false }

  constructor(kernel: ProxyKernel, request: ProxyRequest, upstreamModel: string) {
    const codec = kernel.formats.get(request.inbound)
    this.#codec = codec
    this.#tap = codec && new UsageTap(codec.stream.createDecoder(), clientAskedForUsage(codec, request) ? undefined : codec.stream.usageOption?.usageOnly)
    this.#errorEncoder = codec && (() => codec.stream.createEncoder({ model: request.model }))
    // In whichever fields the format echoes the model (WireCodec.modelEcho), its value on the key's line or the next data line.
    const echo = codec?.modelEcho ?? ['model']
    const pattern = (spell: (text: string) => string) => new RegExp(`("(?:${echo.map(spell).join('|')})"${gap}:${gap})"${spell(upstreamModel)}"`, 'g')
    this.#rename = upstreamModel === request.model ? undefined : { pattern: pattern(escapeRegExp), anySpelling: pattern(anySpelling), value: `$1${JSON.stringify(request.model)}` }
  }

  get usage(): Usage | undefined { return this.#tap?.errorUsage ?? this.#tap?.usage }
  get upstreamError(): string | undefined { return this.#tap?.error }
  /** Characters of answer given: the decoded text, reasoning and tool arguments, as the translating transform counts them. */
  get delivered(): number { return this.#tap ? this.#tap.delivered : this.#reads * 4 }

  #out(events: Buffer): Buffer {
    // A format no codec reads: about a token per read, four characters each, for an estimate.
    this.#reads++
    if (!this.#rename) return events
    const text = events.toString('utf8')
    // Keys or names spelled with escapes (rare): the decoder reads them as the plain name, so does the rename.
    const pattern = text.includes('\\') && (escapedLetter(text) || text.includes('\\/')) ? this.#rename.anySpelling : this.#rename.pattern
    return Buffer.from(text.replace(pattern, this.#rename.value), 'utf8')
  }

  /**
   * Tapped events that hold the answer's last event, ending at `last`, cut there: the client gets the answer
   * up to it, as the plain path gives it, and nothing the upstream sent after it (in this read or later).
   */
  #upToLastEvent(events: Buffer, last: number): Buffer {
    this.complete = true
    this.#carry = undefined
    return last < events.length ? events.subarray(0, last) : events
  }

  push(chunk: Uint8Array): Uint8Array | undefined {
    // The answer's last event went by: what the upstream sends after it is no part of the answer.
    if (this.complete) return undefined
    let buffer = this.#carry ? Buffer.concat([this.#carry, chunk]) : asBuffer(chunk)
    // Not primed: nothing went out yet, so the bytes start the stream (a BOM waits here with its first event).
    if (!this.primed) buffer = withoutBom(buffer)
    const cut = lastEventEnd(buffer)
    this.#carry = cut < buffer.length ? buffer.subarray(cut) : undefined
    if (!cut) return undefined
    let events = cut === buffer.length ? buffer : buffer.subarray(0, cut)
    if (this.#tap) {
      events = this.#tap.pass(events)
      if (this.#tap.completeAt !== undefined) events = this.#upToLastEvent(events, this.#tap.completeAt)
      const opener = this.primed ? undefined : this.#tap.opener
      // A usage-only chunk taken out was the first event: it opens the answer (and is the one looked at for
      // an error), as its decoded start does on the plain path; what follows it goes out.
      if (opener) {
        this.#head.seenFirst = true
        const error = this.#codec && firstEventError(this.#codec, opener.frame)
        if (error) throw error
        this.primed = true
        events = events.subarray(opener.at)
        return events.length ? this.#out(events) : undefined
      }
      if (!events.length) return undefined
    }
    if (this.primed) return this.#out(events)
    // The head of the stream: what precedes the first event is dropped, a broken first event throws.
    // Only the head is decoded to find it (a whole answer can arrive in this one chunk).
    const head = events.length > headBytes ? events.subarray(0, lastEventEnd(events.subarray(0, headBytes)) || events.length) : events
    const text = head.toString('utf8')
    const first = openingEvent(this.#codec, text, this.#head)
    if (first === 0) {
      this.primed = true
      return this.#out(events)
    }
    // Something to skip, or only comments in the head: the whole chunk as text (bytes that are not
    // UTF-8 make text offsets differ from byte offsets), as it always was.
    const whole = head === events ? text : events.toString('utf8')
    const found = head === events ? first : openingEvent(this.#codec, whole, this.#head)
    if (found === undefined) return undefined
    this.primed = true
    return this.#out(Buffer.from(whole.slice(found), 'utf8'))
  }

  /**
   * A clean end. A last event without its blank line goes out with one when it is whole; half an event
   * never does: the stream was cut, and so was one that never reached its terminal event.
   */
  end(): Uint8Array | undefined {
    const carry = this.#carry
    this.#carry = undefined
    // Line ends after the last event (a blank line cut between its `\r` and `\n`) go as they came.
    const blank = carry !== undefined && isBlank(carry)
    let tail: Buffer | undefined
    let half = false
    // A last event whose blank line ends in a CR (no `\n` can follow now) is whole as it came.
    if (carry && !blank && trailingBlankLine(carry) !== undefined) tail = carry
    else if (carry && !blank) {
      const whole = isWholeEvent(carry)
      half = whole === false
      if (whole) tail = Buffer.concat([carry, Buffer.from('\n\n')])
    }
    const tap = this.#tap
    if (!tap) this.cut = half ? cutMidEvent : undefined
    else {
      if (tail) tail = tap.pass(tail)
      if (tail && tap.completeAt !== undefined) tail = this.#upToLastEvent(tail, tap.completeAt)
      tap.end()
      // Half an event after the terminal one is no part of the answer (the decoder reading every frame ignores it).
      this.cut = tap.terminated() ? undefined : half ? cutMidEvent : cutBeforeEnd
    }
    return tail?.length ? this.#out(tail) : blank && carry.length ? carry : undefined
  }

  settle(): boolean {
    const tap = this.#tap
    if (!tap) return false
    // Only what went out is read: half an event waiting in `#carry` never reached the client.
    tap.end()
    return tap.terminated()
  }

  fail(message: string, status = 502): Uint8Array | undefined {
    const encoder = this.#errorEncoder?.()
    return encoder ? bytes(encoder.push({ type: 'error', status, message }) + encoder.end()) : undefined
  }
}
