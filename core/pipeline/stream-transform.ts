import type { StreamEncoder, StreamDecoder, StreamFrame, WireCodec } from '../canonical/codec.ts'
import type { StreamEvent, Usage } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import { createFrameParser } from '../framing/frames.ts'
import { Utf8Decoder } from '../framing/utf8-decoder.ts'
import { requestField } from './request.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { firstEventError, isDoneFrame } from './first-event.ts'
import type { AnswerPlan } from './answer-plan.ts'
import { keepsSignatures, rememberSignatures, signatureCollector } from './signature-store.ts'
import { isWholeData } from './event-spans.ts'
import { bytes, cutBeforeEnd, cutMidEvent, PassthroughTransform } from './passthrough-transform.ts'
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
  /**
   * The answer's last event went by (StreamDecoder.complete): nothing more belongs to it, so it ends now
   * (`end()`) whether or not the upstream closes its connection. Nothing after that event goes to the client.
   */
  readonly complete: boolean
  /** The usage the upstream reported (so far, when the stream did not end whole). */
  readonly usage?: Usage
  /** Set by `end()` when the upstream ended without its terminal event, or mid-event: the stream was cut. */
  readonly cut?: string
  /** An error the upstream sent in its stream (the client got it in its format): the answer failed. */
  readonly upstreamError?: string
  /** Characters of answer given to the client (an estimate's basis when no usage came). */
  readonly delivered: number
}

/** Different formats: upstream frames (SSE unless the codec says otherwise) -> canonical events -> client wire text, with per-request state. */
class TranslatingTransform implements StreamTransform {
  primed = false
  complete = false
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
    // Nothing answered yet: a `[DONE]` opens no answer (first-event.ts), so the stream may still fail over.
    if (!this.primed && isDoneFrame(frame)) return ''
    if (!this.#seenFirst) {
      this.#seenFirst = true
      const error = firstEventError(this.source, frame)
      if (error) throw error
    }
    const out = this.#emit(this.decoder.push(frame))
    if (this.decoder.complete?.()) this.complete = true
    return out
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
      } else if (event.type === 'error') {
        this.upstreamError ??= event.message
        // What was reported before the error (chat's and generateContent's running counts): an estimate starts from it.
        if (event.usage && !this.#finished) this.usage = event.usage
      } else if (event.type === 'text' || event.type === 'thinking' || event.type === 'tool_call_delta') this.delivered += event.delta.length
      this.onAnswer?.(event)
      out += this.encoder.push(event)
    }
    return out
  }

  push(chunk: Uint8Array): Uint8Array | undefined {
    let out = ''
    // Frames after the answer's last event are no part of it (the decoder would ignore them anyway).
    for (const sse of this.#parser.push(this.#text.write(chunk))) if (!this.complete) out += this.#decode(sse)
    return bytes(out)
  }

  end(): Uint8Array | undefined {
    let out = ''
    // Once complete, what waits in the parser came after the last event: no part of the answer.
    if (!this.complete) for (const sse of this.#parser.push(this.#text.end())) out += this.#decode(sse)
    const last = this.complete ? [] : this.#parser.end()
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
