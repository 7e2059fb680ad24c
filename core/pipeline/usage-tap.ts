import type { StreamDecoder, StreamFrame } from '../canonical/codec.ts'
import type { Usage } from '../canonical/types.ts'
import { blankLineAfter, blankLineBefore } from '../framing/sse-bounds.ts'
import { firstSpans, frameOf, type Span, without } from './event-spans.ts'
import { emptyChoices, emptyChoicesAt, escapedLetter } from './stream-markers.ts'

/**
 * Reads a same-format stream while its bytes pass through, as the plain path reads it: every event, in
 * order, through the format's own decoder (a usage-only frame the client did not ask for too, in its
 * place, though it is taken out of the bytes). The usage, the error the upstream sent, whether the answer
 * reached its terminal event and how much of it was delivered are what decoding the stream gives, by
 * construction: only the encoding is skipped. Reading fewer events (a stream's head and last few, found
 * by byte searches for markers) cost a little less and read some streams otherwise (docs/benchmarks.md,
 * "Usage tap").
 */
export class UsageTap {
  readonly #decoder: StreamDecoder
  readonly #dropUsageOnly: ((frame: StreamFrame) => boolean) | undefined
  /** Whether a data event went by (kept or taken out). */
  #dataSeen = false
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
  /** Characters of text, reasoning and tool arguments decoded, as the translating transform counts them. */
  delivered = 0
  /**
   * Where the answer's last event ends (past its blank line) in the buffer `pass` returned, once the
   * decoder says nothing more belongs to the answer (StreamDecoder.complete): the rest is no part of it.
   */
  completeAt: number | undefined

  constructor(decoder: StreamDecoder, dropUsageOnly?: (frame: StreamFrame) => boolean) {
    this.#decoder = decoder
    this.#dropUsageOnly = dropUsageOnly
  }

  /** Whether the format's terminal event came (a decoder that cannot tell: always). Known after `end()`. */
  terminated(): boolean {
    return this.#decoder.terminated?.() ?? true
  }

  /** Whole events on their way to the client: the same bytes back, less a usage-only frame the client did not ask for. */
  pass(events: Buffer): Buffer {
    const taken = this.#dropUsageOnly ? this.#withoutUsageOnly(events) : undefined
    if (!this.#dataSeen) this.#findOpening(taken ? taken.events : events, taken?.frames)
    // Event by event as cut in the bytes (the frames taken out too, in their place): what reached the
    // client is what was decoded, whichever way the upstream's line ends fall between reads.
    const noCr = events.indexOf(0x0d) === -1
    let removed = 0 // bytes of frames taken out before `start`: where it is in the buffer as kept
    for (let start = 0, next = 0; start < events.length;) {
      for (; taken && next < taken.spans.length && taken.spans[next]![0] < start; next++) removed += taken.spans[next]![2] - taken.spans[next]![0]
      const blank = blankLineAfter(events, start, noCr)
      const frame = frameOf(events.toString('utf8', start, blank ? blank[0] : events.length))
      start = blank ? blank[1] : events.length
      if (!frame) continue
      this.#decode(frame)
      if (this.#decoder.complete?.()) {
        this.completeAt = start - removed
        break
      }
    }
    return taken ? taken.events : events
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

  /** The upstream ended (or the stream broke): the decoder's closing usage is taken. */
  end(): void {
    for (const event of this.#decoder.end()) if (event.type === 'finish' && event.usage) this.usage = event.usage
  }

  /** The buffer without its usage-only frames: each frame, its span, and where it was in the buffer as kept. */
  #withoutUsageOnly(events: Buffer): { events: Buffer; spans: Span[]; frames: TakenFrame[] } | undefined {
    const spans: Span[] = []
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
        spans.push(span)
      }
    }
    return spans.length ? { events: without(events, spans), spans, frames } : undefined
  }

  #decode(frame: StreamFrame): void {
    for (const event of this.#decoder.push(frame)) {
      if ((event.type === 'finish' || event.type === 'start') && event.usage) this.usage = event.usage
      else if (event.type === 'error') {
        this.error ??= event.message
        this.errorUsage ??= event.usage
      } else if (event.type === 'text' || event.type === 'thinking' || event.type === 'tool_call_delta') this.delivered += event.delta.length
    }
  }
}

interface TakenFrame { at: number; frame: StreamFrame }
