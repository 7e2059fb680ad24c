import type { StreamDecoder, StreamFrame, StreamMarker } from '../canonical/codec.ts'
import type { Usage } from '../canonical/types.ts'
import { blankLineAfter, blankLineBefore } from '../framing/sse-bounds.ts'
import { firstSpans, frameOf, type Span, without } from './event-spans.ts'
import { emptyChoices, emptyChoicesAt, escapedLetter, isDone, needlesFor, type Needles } from './stream-markers.ts'

/**
 * Reads a same-format stream while its bytes pass through: the format's decoder sees only the events
 * that hold one of its markers (found by one regular expression over each buffer as latin1 text), and so
 * knows the usage the upstream reported, any error it sent, and whether the stream reached its terminal
 * event, as the decoder reading every frame does. Events that repeat a running total (`last` markers)
 * are not decoded one by one: the newest is held and read before the next marked event, or at the end.
 * For a client that did not ask for usage, the events whose `choices` is an empty list (found by a byte
 * search) are looked at for the usage-only frame, taken out before it is sent and read in its place.
 * Every event is looked at: a tap that read only the stream's head and end missed usage, errors and
 * `[DONE]` further back, which the plain path reads (docs/benchmarks.md, "usage tap").
 */
export class UsageTap {
  readonly #decoder: StreamDecoder
  readonly #marked: RegExp
  readonly #eager: Needles
  readonly #last: Needles
  readonly #dropUsageOnly: ((frame: StreamFrame) => boolean) | undefined
  /** The newest running-total event not yet read: read before the next marked event, or at the end. */
  #total: { buffer: Buffer; at: number } | undefined
  /** Whether a data event went by (kept or taken out), and whether `[DONE]` did. */
  #dataSeen = false
  #done = false
  /**
   * The usage-only frame taken out when it was the stream's first data event, and where the events after
   * it start in the buffer as kept: the decoder reading every frame starts the answer on it.
   */
  opener: { at: number; frame: StreamFrame } | undefined
  usage: Usage | undefined
  /** An error event the upstream sent (it reaches the client as it came). */
  error: string | undefined
  /** What the first error event says was reported before it (chat's and generateContent's running counts). */
  errorUsage: Usage | undefined

  constructor(decoder: StreamDecoder, markers: StreamMarker[], dropUsageOnly?: (frame: StreamFrame) => boolean) {
    this.#decoder = decoder
    const needles = needlesFor(markers)
    this.#marked = needles.any
    this.#eager = needles.eager
    this.#last = needles.last
    this.#dropUsageOnly = dropUsageOnly
  }

  /** Whether the format's terminal event came (a decoder that cannot tell: always). Known after `end()`. */
  terminated(): boolean {
    return this.#decoder.terminated?.() ?? true
  }

  /** Whole events on their way to the client: the same bytes back, less a usage-only frame the client did not ask for. */
  pass(events: Buffer): Buffer {
    const taken = this.#dropUsageOnly ? this.#withoutUsageOnly(events) : undefined
    if (taken) events = taken.events
    if (!this.#dataSeen) this.#findOpening(events, taken?.frames)
    const text = events.toString('latin1')
    const marked = this.#marked
    let next = 0 // the next usage-only frame taken out of this buffer, read in its place
    for (let from = 0; from < text.length;) {
      marked.lastIndex = from
      const match = marked.exec(text)
      if (!match) break
      const at = match.index
      // A running total is only noted (where it is): its event is found and read when it is needed.
      if (match[1] !== undefined && !blankLineIn(match[0])) {
        for (; taken && next < taken.frames.length && taken.frames[next]!.at <= at; next++) this.#readUsageOnly(taken.frames[next]!.frame)
        this.#total = { buffer: events, at }
        from = at + match[0].length
        continue
      }
      const span = spanAt(events, at)
      from = span[2]
      const event = text.slice(span[0], span[1])
      const eager = this.#eager(event)
      if (!eager && !this.#last(event)) continue // the match ran past its event's end
      for (; taken && next < taken.frames.length && taken.frames[next]!.at <= span[0]; next++) this.#readUsageOnly(taken.frames[next]!.frame)
      if (!eager) { this.#total = { buffer: events, at }; continue }
      // A running total noted in this very event is read with it.
      if (this.#total?.buffer === events && this.#total.at >= span[0]) this.#total = undefined
      this.#readTotal()
      if (isDone(event)) this.#done = true
      this.#read(events, span)
    }
    for (; taken && next < taken.frames.length; next++) this.#readUsageOnly(taken.frames[next]!.frame)
    return events
  }

  /** The stream's first data event (comments before it are no event): a usage-only frame taken out before it opened the answer. */
  #findOpening(events: Buffer, frames: TakenFrame[] | undefined): void {
    const dropped = frames?.[0]
    for (let from = 0; from < events.length;) {
      const [span] = firstSpans(events.subarray(from), 1)
      if (!span) break
      const start = from + span[0]
      const isData = events.toString('latin1', start, from + span[1]).includes('data:')
      from += span[2]
      if (!isData) continue
      this.#dataSeen = true
      if (dropped && dropped.at <= start) this.opener = dropped
      return
    }
    if (dropped) {
      this.#dataSeen = true
      this.opener = dropped
    }
  }

  /** The upstream ended: the newest running total is read, then the decoder's closing usage taken. */
  end(): void {
    this.#readTotal()
    for (const event of this.#decoder.end()) if (event.type === 'finish' && event.usage) this.usage = event.usage
  }

  #readTotal(): void {
    const total = this.#total
    this.#total = undefined
    if (total) this.#read(total.buffer, spanAt(total.buffer, total.at))
  }

  /** A usage-only frame after `[DONE]` is no part of the answer, as the decoder reading every frame finds. */
  #readUsageOnly(frame: StreamFrame): void {
    if (this.#done) return
    this.#readTotal()
    this.#decode(frame)
  }

  /** The buffer without its usage-only frames, and each frame with where it was in the buffer as kept. */
  #withoutUsageOnly(events: Buffer): { events: Buffer; frames: TakenFrame[] } | undefined {
    let dropped: Span[] | undefined
    const frames: TakenFrame[] = []
    // Bytes taken out before a frame: its `at` is where it was in the buffer as kept (where the events after it start).
    let removed = 0
    // Nearly every buffer holds no empty list at all: a byte search, then only the events that hold one, wherever they are.
    for (let list = emptyChoicesAt(events, 1); list !== -1;) {
      const start = blankLineBefore(events, list)?.[1] ?? 0
      const blank = blankLineAfter(events, list)
      const span: Span = blank ? [start, blank[0], blank[1]] : [start, events.length, events.length]
      list = emptyChoicesAt(events, span[2])
      const text = events.toString('latin1', span[0], span[1])
      if (!emptyChoices(text) && !escapedLetter(text)) continue
      const frame = frameOf(events.toString('utf8', span[0], span[1]))
      if (frame && this.#dropUsageOnly!(frame)) {
        frames.push({ at: span[0] - removed, frame })
        removed += span[2] - span[0]
        ;(dropped ??= []).push(span)
      }
    }
    return dropped ? { events: without(events, dropped), frames } : undefined
  }

  #read(buffer: Buffer, span: Span): void {
    const frame = frameOf(buffer.toString('utf8', span[0], span[1]))
    if (frame) this.#decode(frame)
  }

  #decode(frame: StreamFrame): void {
    for (const event of this.#decoder.push(frame)) {
      if ((event.type === 'finish' || event.type === 'start') && event.usage) this.usage = event.usage
      else if (event.type === 'error') {
        this.error ??= event.message
        this.errorUsage ??= event.usage
      }
    }
  }
}

interface TakenFrame { at: number; frame: StreamFrame }

/** The event around byte `at` of a buffer of whole events: [start, end of its text, end with its blank line]. */
function spanAt(events: Buffer, at: number): Span {
  const start = blankLineBefore(events, at)?.[1] ?? 0
  const blank = blankLineAfter(events, at)
  return blank ? [start, blank[0], blank[1]] : [start, events.length, events.length]
}

/** Whether a match runs over a blank line (two line ends in a row; `\r\n` is one): then it spans two events. */
const blankLineIn = (text: string) => /\n\n|\r\r|\n\r/.test(text)
