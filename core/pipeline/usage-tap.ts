import type { StreamDecoder, StreamFrame, StreamMarker } from '../canonical/codec.ts'
import type { Usage } from '../canonical/types.ts'
import { blankLineAfter, blankLineBefore, trailingBlankLine } from '../framing/sse-bounds.ts'
import { emptyChoices, hasEmptyList, isDone, isPing, needlesFor, type Needles } from './stream-markers.ts'

/** Where one whole SSE event sits in a buffer of whole events: [start, end of its text, end with its blank line]. */
type Span = [number, number, number]

const newline = 0x0a
const carriage = 0x0d

/** The first `count` events of a buffer of whole events. */
function firstSpans(buffer: Buffer, count: number): Span[] {
  const spans: Span[] = []
  let start = 0
  while (spans.length < count && start < buffer.length) {
    const blank = blankLineAfter(buffer, start)
    spans.push(blank ? [start, blank[0], blank[1]] : [start, buffer.length, buffer.length])
    start = blank ? blank[1] : buffer.length
  }
  return spans
}

/** The last `count` events of a buffer of whole events, oldest first. */
function lastSpans(buffer: Buffer, count: number): Span[] {
  const spans: Span[] = []
  let after = buffer.length
  while (spans.length < count && after > 0) {
    const end = trailingBlankLine(buffer, after) ?? after
    const start = blankLineBefore(buffer, end)?.[1] ?? 0
    spans.unshift([start, end, after])
    after = start
  }
  return spans
}

/**
 * The last `count` events of a buffer of whole events that hold data, oldest first: comments among them
 * (keep-alives around `[DONE]`) do not count, so they cannot push the usage-only frame out of reach.
 */
function lastDataSpans(buffer: Buffer, count: number): Span[] {
  const spans: Span[] = []
  let skipped = 0
  for (let after = buffer.length; after > 0 && spans.length < count;) {
    const [span] = lastSpans(buffer.subarray(0, after), 1) as [Span]
    after = span[0]
    if (buffer.toString('latin1', span[0], span[1]).includes('data:')) spans.unshift(span)
    else if (++skipped > maxTailBuffers) break
  }
  return spans
}

/** One SSE event's text -> its frame (`event:` and joined `data:` lines). */
export function frameOf(text: string): StreamFrame | undefined {
  let event: string | undefined
  let data: string | undefined
  for (const line of text.split(/\r\n|\n|\r/)) {
    const colon = line.indexOf(':')
    if (colon === 0) continue
    // A line without a colon is a field with an empty value (`data` alone is a data line), as sse.ts reads it.
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1)
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`
    else if (field === 'event') event = value
  }
  if (data === undefined) return undefined
  return event === undefined ? { data } : { event, data }
}

/** Whether a stream's last bytes, cut without their blank line, are still one whole event (its data JSON, or `[DONE]`). */
export function isWholeEvent(bytes: Buffer): boolean | undefined {
  const frame = frameOf(bytes.toString('utf8'))
  return frame && isWholeData(frame.data)
}

/** Whether a frame's data is whole: JSON, or `[DONE]`. */
export function isWholeData(data: string): boolean {
  if (data.trim() === '[DONE]') return true
  try { JSON.parse(data); return true } catch { return false }
}

/**
 * Data events looked at the head for the first one with a marker (a `message_start`, read then): a few, as
 * an upstream may send a `ping` before it. Events read at the end (finish, usage, terminal, error), and
 * looked at for a usage-only frame.
 */
const headEvents = 4
const endEvents = 8
const usageOnlyEvents = 3
/** Buffers kept for the end: their last events are the stream's last. */
const tailBuffers = 8
/**
 * Buffers this small (a ping, a keep-alive comment) do not count among the kept ones, nor do such events
 * among the last eight: however many come after the usage, it stays in reach. Bounded all the same.
 */
const fillerBytes = 64
const maxTailBuffers = 512

/**
 * Reads a same-format stream while its bytes pass through: the format's decoder sees only the events
 * that hold one of its markers, and so knows the usage the upstream reported and whether the stream
 * reached its terminal event. Usage and terminal events open and close a stream, so only the first
 * events and (at the end) the last ones are looked at: the buffers in between pass untouched, the last
 * few kept as they are (no copy) until the end. For a client that did not ask for usage, the last
 * events of each buffer are looked at for the usage-only frame, taken out before it is sent. Searching
 * whole answers for markers costs ~40 µs per 24 KB needle; this costs a few µs per stream.
 */
export class UsageTap {
  readonly #decoder: StreamDecoder
  readonly #eager: Needles
  readonly #last: Needles
  readonly #dropUsageOnly: ((frame: StreamFrame) => boolean) | undefined
  #headLeft = headEvents
  /** Events read at the head, so the end does not read them again. */
  readonly #read = new Set<string>()
  /** The last event buffers, oldest first, with their number in the stream. */
  #tail: Array<{ buffer: Buffer; id: number }> = []
  /** Usage-only frames taken out for a client that did not ask for them, read at the end unless they came after `[DONE]`. */
  #usageOnly: Array<{ id: number; at: number; frame: StreamFrame }> = []
  #buffers = 0
  usage: Usage | undefined
  /** An error event the upstream sent (it reaches the client as it came). */
  error: string | undefined

  constructor(decoder: StreamDecoder, markers: StreamMarker[], dropUsageOnly?: (frame: StreamFrame) => boolean) {
    this.#decoder = decoder
    const needles = needlesFor(markers)
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
    const id = this.#buffers++
    // First, so that the head reads the buffer as kept: an event read there is known by its place in it.
    if (this.#dropUsageOnly) events = this.#withoutUsageOnly(events, id)
    // The head: up to the first data event with a marker (comments before it are no event), `headEvents` at most.
    for (let from = 0; this.#headLeft > 0 && from < events.length;) {
      const [span] = firstSpans(events.subarray(from), 1)
      if (!span) break
      const start = from + span[0]
      const end = from + span[1]
      from += span[2]
      const text = events.toString('latin1', start, end)
      if (!text.includes('data:')) continue
      this.#headLeft--
      if (!this.#eager(text) && !this.#last(text)) continue
      this.#headLeft = 0
      this.#read.add(`${id}:${start}`)
      this.#decodeText(events, [start, end, from])
    }
    if (events.length) {
      this.#tail.push({ buffer: events, id })
      if (this.#tail.length > tailBuffers * 2) this.#tail = this.#tail.slice(this.#keptFrom())
    }
    return events
  }

  /** Where the kept tail starts: the last `tailBuffers` buffers of more than filler size, and the small ones among and after them. */
  #keptFrom(): number {
    let counted = 0
    let at = this.#tail.length
    while (at > 0 && counted < tailBuffers && this.#tail.length - at < maxTailBuffers) if (this.#tail[--at]!.buffer.length > fillerBytes) counted++
    return at
  }

  /** The upstream ended: its last events are read (the last running total once), then the decoder's closing usage taken. */
  end(): void {
    const found: Array<[Buffer, Span, number]> = []
    let last: [Buffer, Span] | undefined
    let lastSeen = false
    let looked = 0
    let skipped = 0
    let done: { id: number; at: number } | undefined
    for (let b = this.#tail.length - 1; b >= 0 && looked < endEvents; b--) {
      const { buffer, id } = this.#tail[b]!
      for (let after = buffer.length; after > 0 && looked < endEvents;) {
        const [span] = lastSpans(buffer.subarray(0, after), 1) as [Span]
        after = span[0]
        if (this.#read.has(`${id}:${span[0]}`)) { looked++; continue }
        const text = buffer.toString('latin1', span[0], span[1])
        if (isDone(text)) done = { id, at: span[0] }
        const eager = this.#eager(text)
        // Comments and pings are no event of the stream's end: they neither count nor hide one.
        if (!eager && (!text.includes('data:') || isPing(text)) && !this.#last(text) && ++skipped <= maxTailBuffers) continue
        looked++
        if (eager) found.unshift([buffer, span, id])
        // Only the newest running total counts (read with the eager ones when it is one of them).
        if (!lastSeen && this.#last(text)) {
          lastSeen = true
          if (!eager) last = [buffer, span]
        }
      }
    }
    this.#tail = []
    // A usage-only frame after `[DONE]` is no part of the answer, as the decoder reading every frame finds. In
    // one buffer `at` is where the frame was in the buffer as kept: `[DONE]` right after it starts there.
    const before = (frame: { id: number; at: number }, id: number, at: number) => frame.id < id || (frame.id === id && frame.at <= at)
    const usageOnly = this.#usageOnly.filter(frame => !done || before(frame, done.id, done.at))
    this.#usageOnly = []
    // In stream order, as the decoder reading every frame has them: chunks that each carry a running total
    // (vLLM's continuous usage stats) come before the usage-only frame, whose total is the one that counts.
    let next = 0
    for (const [buffer, span, id] of found) {
      while (next < usageOnly.length && before(usageOnly[next]!, id, span[0])) this.#decode(usageOnly[next++]!.frame)
      this.#decodeText(buffer, span)
    }
    for (; next < usageOnly.length; next++) this.#decode(usageOnly[next]!.frame)
    if (last) this.#decodeText(last[0], last[1])
    for (const event of this.#decoder.end()) if (event.type === 'finish' && event.usage) this.usage = event.usage
  }

  #withoutUsageOnly(events: Buffer, id: number): Buffer {
    // Nearly every buffer holds no empty list at all: a byte search, not three events as text.
    if (!hasEmptyList(events)) return events
    let dropped: Span[] | undefined
    // Bytes taken out before a frame: its `at` is where it was in the buffer as kept (where the events after it start).
    let removed = 0
    for (const span of lastDataSpans(events, usageOnlyEvents)) {
      if (!emptyChoices(events.toString('latin1', span[0], span[1]))) continue
      const frame = frameOf(events.toString('utf8', span[0], span[1]))
      // Kept aside: it never reaches the kept tail.
      if (frame && this.#dropUsageOnly!(frame)) {
        this.#usageOnly.push({ id, at: span[0] - removed, frame })
        removed += span[2] - span[0]
        ;(dropped ??= []).push(span)
      }
    }
    return dropped ? without(events, dropped) : events
  }

  #decodeText(buffer: Buffer, span: Span): void {
    const frame = frameOf(buffer.toString('utf8', span[0], span[1]))
    if (frame) this.#decode(frame)
  }

  #decode(frame: StreamFrame): void {
    for (const event of this.#decoder.push(frame)) {
      if ((event.type === 'finish' || event.type === 'start') && event.usage) this.usage = event.usage
      else if (event.type === 'error') this.error ??= event.message
    }
  }
}

/** The buffer without the given events (and their blank lines). */
function without(buffer: Buffer, spans: Span[]): Buffer {
  const parts: Buffer[] = []
  let from = 0
  for (const [start, , after] of spans) {
    if (start > from) parts.push(buffer.subarray(from, start))
    from = after
  }
  if (from < buffer.length) parts.push(buffer.subarray(from))
  return Buffer.concat(parts)
}

export const isBlank = (bytes: Buffer): boolean => {
  for (const byte of bytes) if (byte !== newline && byte !== carriage && byte !== 0x20 && byte !== 0x09) return false
  return true
}
