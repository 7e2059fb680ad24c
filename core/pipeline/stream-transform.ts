import type { StreamEncoder, StreamDecoder, StreamFrame, WireCodec } from '../canonical/codec.ts'
import type { StreamEvent, Usage } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import { createFrameParser } from '../framing/frames.ts'
import { Utf8Decoder } from '../framing/utf8-decoder.ts'
import { requestField } from './request.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { firstEventError, openingEvent } from './first-event.ts'
import { lastEventEnd, trailingBlankLine } from '../framing/sse-bounds.ts'
import type { AnswerPlan } from './answer-plan.ts'
import { keepsSignatures, rememberSignatures, signatureCollector } from './signature-store.ts'
import { UsageTap } from './usage-tap.ts'
import { isBlank, isWholeData, isWholeEvent } from './event-spans.ts'
import { escapeRegExp, gap } from './stream-markers.ts'
import { clientAskedForUsage } from './usage-option.ts'
import { namespaceRestorer, restoreEventNamespace } from '../canonical/tool-namespaces.ts'

/** Turns upstream stream bytes into client bytes, one event at a time (undefined: nothing to send yet). */
export interface StreamTransform {
  push(chunk: Uint8Array): Uint8Array | undefined
  end(): Uint8Array | undefined
  /** The format's error event (and end of stream) for a failure after the first byte; 502 unless told. */
  fail(message: string, status?: number): Uint8Array | undefined
  /**
   * The stream stops before the upstream's end (it broke, or the client left): reads what the upstream
   * reported so far (`usage`) and says whether its terminal event had come, i.e. whether the answer was
   * whole. `end()` may follow, for the closing bytes of a whole answer.
   */
  settle(): boolean
  /** The upstream has sent something real (a whole event): from here on the answer is committed. */
  readonly primed: boolean
  /** The usage the upstream reported (so far, when the stream did not end whole). */
  readonly usage?: Usage
  /** Set by `end()` when the upstream ended without its terminal event, or mid-event: the stream was cut. */
  readonly cut?: string
  /** An error the upstream sent in its stream (the client got it in its format): the answer failed. */
  readonly upstreamError?: string
  /** Characters of answer given to the client (an estimate's basis when no usage came). */
  readonly delivered: number
}

const bytes = (text: string) => text ? Buffer.from(text, 'utf8') : undefined
const asBuffer = (chunk: Uint8Array) => Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)

/** A UTF-8 byte order mark a stream may start with: the SSE parser drops it (utf8-decoder.ts), so must the passthrough. */
const withoutBom = (bytes: Buffer) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes

/** Why a stream that did not reach its terminal event was cut: the same words on either path. */
const cutMidEvent = 'the upstream stream ended mid-event'
const cutBeforeEnd = 'the upstream stream ended before its last event'

/** How much of a stream's first chunk is decoded to find its first event. */
const headBytes = 4096

// The transforms are classes, not object literals with `get primed()`: a literal with its own accessor
// functions gets a hidden class of its own, which keeps the stream's whole state alive through young
// collections until a full one (docs/benchmarks.md, "object literals with getters").

/**
 * Same format: whole events pass through as the upstream's own bytes (no decode, no encode); only when
 * the client used an alias is the model name rewritten, in whole events (a cut at a blank line never
 * splits a UTF-8 character).
 */
class PassthroughTransform implements StreamTransform {
  primed = false
  cut: string | undefined = undefined
  delivered = 0
  /** Reads usage and the terminal event off the bytes (formats whose codec names its markers). */
  readonly #tap: UsageTap | undefined
  /** Whole events only: a stream cut mid-event must not glue half a frame to the error frame after it. */
  #carry: Buffer | undefined
  /** Makes the format's error event should the stream fail (made then: most never do). */
  readonly #errorEncoder: (() => StreamEncoder) | undefined
  readonly #rename: { pattern: RegExp; value: string } | undefined
  /** The format's codec (the upstream's and the client's): tells whether the first event is an error. */
  readonly #codec: WireCodec | undefined
  /** Whether the stream's first data event was looked at for an error (first-event.ts). */
  readonly #head = { seenFirst: false }

  constructor(kernel: ProxyKernel, request: ProxyRequest, upstreamModel: string) {
    const codec = kernel.formats.get(request.inbound)
    this.#codec = codec
    const markers = codec?.stream.markers
    this.#tap = markers && new UsageTap(codec.stream.createDecoder(), markers, clientAskedForUsage(codec, request) ? undefined : codec.stream.usageOption?.usageOnly)
    this.#errorEncoder = codec && (() => codec.stream.createEncoder({ model: request.model }))
    this.#rename = upstreamModel === request.model
      ? undefined
      // In whichever fields the format echoes the model (WireCodec.modelEcho), its value on the key's line or the next data line.
      : { pattern: new RegExp(`("(?:${(codec?.modelEcho ?? ['model']).map(escapeRegExp).join('|')})"${gap}:${gap})"${escapeRegExp(upstreamModel)}"`, 'g'), value: `$1${JSON.stringify(request.model)}` }
  }

  get usage(): Usage | undefined { return this.#tap?.usage }
  get upstreamError(): string | undefined { return this.#tap?.error }

  #out(events: Buffer): Buffer {
    // Upstreams send about a token per chunk: four characters each, for an estimate should no usage come.
    this.delivered += 4
    return this.#rename ? Buffer.from(events.toString('utf8').replace(this.#rename.pattern, this.#rename.value), 'utf8') : events
  }

  push(chunk: Uint8Array): Uint8Array | undefined {
    let buffer = this.#carry ? Buffer.concat([this.#carry, chunk]) : asBuffer(chunk)
    // Not primed: nothing went out yet, so the bytes start the stream (a BOM waits here with its first event).
    if (!this.primed) buffer = withoutBom(buffer)
    const cut = lastEventEnd(buffer)
    this.#carry = cut < buffer.length ? buffer.subarray(cut) : undefined
    if (!cut) return undefined
    let events = cut === buffer.length ? buffer : buffer.subarray(0, cut)
    if (this.#tap) {
      events = this.#tap.pass(events)
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

/** Different formats: upstream frames (SSE unless the codec says otherwise) -> canonical events -> client wire text, with per-request state. */
class TranslatingTransform implements StreamTransform {
  primed = false
  usage: Usage | undefined = undefined
  cut: string | undefined = undefined
  upstreamError: string | undefined = undefined
  delivered = 0
  #finished = false
  /** The decoder's closing events, taken by `settle()` before the end. */
  #held: StreamEvent[] | undefined
  /** The first frame was looked at (an error there fails the attempt: first-event.ts). */
  #seenFirst = false
  readonly #parser: ReturnType<typeof createFrameParser>
  readonly #text = new Utf8Decoder()

  /** The client's stream was closed (`end()`): an error after it (a hook's stream failing) takes a new encoder. */
  #closedOut = false

  constructor(
    /** The upstream's format. */
    private readonly source: WireCodec,
    private readonly decoder: StreamDecoder, private readonly encoder: StreamEncoder,
    private readonly newEncoder: () => StreamEncoder,
    private readonly onAnswer?: (events: StreamEvent) => void,
    /** Gives calls of grouped tools their group back (core/canonical/tool-namespaces.ts). */
    private readonly restore?: ReturnType<typeof namespaceRestorer>,
  ) {
    this.#parser = createFrameParser(source.stream.framing)
  }

  /** One upstream frame -> client text; the first, when it is an error, throws ErrorFirstEvent instead. */
  #decode(frame: StreamFrame): string {
    if (!this.#seenFirst) {
      this.#seenFirst = true
      const error = firstEventError(this.source, frame)
      if (error) throw error
    }
    return this.#emit(this.decoder.push(frame))
  }

  #emit(events: StreamEvent[]): string {
    if (events.length) this.primed = true
    let out = ''
    for (const decoded of events) {
      const event = this.restore ? restoreEventNamespace(decoded, this.restore) : decoded
      if (event.type === 'finish') {
        if (this.#finished) continue
        this.#finished = true
        this.usage = event.usage
      } else if (event.type === 'start') {
        // The usage a stream reports as it opens (messages' message_start) counts should it fail before its
        // finish (an error event), as it does for the passthrough, and for a stream cut short.
        if (event.usage && !this.#finished) this.usage = event.usage
      } else if (event.type === 'error') this.upstreamError ??= event.message
      else if (event.type === 'text' || event.type === 'thinking' || event.type === 'tool_call_delta') this.delivered += event.delta.length
      this.onAnswer?.(event)
      out += this.encoder.push(event)
    }
    return out
  }

  push(chunk: Uint8Array): Uint8Array | undefined {
    let out = ''
    for (const sse of this.#parser.push(this.#text.write(chunk))) out += this.#decode(sse)
    return bytes(out)
  }

  end(): Uint8Array | undefined {
    let out = ''
    for (const sse of this.#parser.push(this.#text.end())) out += this.#decode(sse)
    const last = this.#parser.end()
    for (const sse of last) out += this.#decode(sse)
    if (this.decoder.terminated?.() === false) {
      // Cut before its terminal event: what came goes out, never a finish; the usage so far is kept. A last
      // frame that lacked its blank line and is no whole JSON was cut mid-event, as the passthrough says.
      this.cut = last.some(frame => !isWholeData(frame.data)) ? cutMidEvent : cutBeforeEnd
      for (const event of this.decoder.end()) if (event.type === 'finish') this.usage = event.usage
      return bytes(out)
    }
    this.#closedOut = true
    return bytes(out + this.#emit(this.#held ?? this.decoder.end()) + this.encoder.end())
  }

  settle(): boolean {
    // A decoder that holds its finish (chat's waits for the usage chunk) gives it, with the usage so far;
    // kept for `end()`, which sends it on should the client still be there.
    if (!this.#finished && !this.#held) {
      this.#held = this.decoder.end()
      for (const event of this.#held) if (event.type === 'finish') this.usage = event.usage
    }
    return this.decoder.terminated?.() === true
  }

  fail(message: string, status = 502): Uint8Array | undefined {
    const encoder = this.#closedOut ? this.newEncoder() : this.encoder
    return bytes(encoder.push({ type: 'error', status, message }) + encoder.end())
  }
}

export function createStreamTransform(kernel: ProxyKernel, request: ProxyRequest, plan: AnswerPlan): StreamTransform {
  const { upstream, upstreamModel, sse, client } = plan
  const source = kernel.formats.get(upstream)
  // Passthrough cuts at SSE blank lines: a format framed otherwise always goes through its codec.
  if (plan.passthrough && (source?.stream.framing ?? 'sse') === 'sse') return new PassthroughTransform(kernel, request, upstreamModel)
  const target = client ?? kernel.formats.get(request.inbound)
  if (!source || !target) throw new ProxyError(501, `no translation from ${upstream} to ${request.inbound} is installed`, 'server_error')
  const includeUsage = (requestField(request, 'stream_options') as { include_usage?: unknown } | undefined)?.include_usage === true
  const newEncoder = () => target.stream.createEncoder({ model: request.model, sse, includeUsage })
  const onAnswer = !client && keepsSignatures(request.inbound, upstream) ? storeOnFinish(kernel) : undefined
  return new TranslatingTransform(source, source.stream.createDecoder(), newEncoder(), newEncoder, onAnswer, namespaceRestorer(request.canonical?.tools))
}

/** Keeps a chat client's signed thinking once its stream finishes (core/pipeline/signature-store.ts). */
function storeOnFinish(kernel: ProxyKernel): (event: StreamEvent) => void {
  const collector = signatureCollector()
  return (event) => {
    if (event.type === 'finish') void rememberSignatures(kernel, collector.parts())
    else collector.push(event)
  }
}
