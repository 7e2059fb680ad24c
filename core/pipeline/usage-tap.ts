import type { StreamDecoder, StreamFrame, StreamMarker } from '../canonical/codec.ts'
import type { Usage } from '../canonical/types.ts'
import { blankLineAfter, blankLineBefore } from '../framing/sse-bounds.ts'
import { firstSpans, frameOf, lastSpans, type Span, without } from './event-spans.ts'
import { emptyChoices, emptyChoicesAt, escapedLetter, isDone, isPing, needlesFor, type Needles } from './stream-markers.ts'

/**
 * Data events looked at the head for the first one with a marker (a `message_start`, read then): a few, as
 * an upstream may send a `ping` before it. Events read at the end (finish, usage, terminal, error).
 */
const headEvents = 4
const endEvents = 8
/** Buffers kept for the end: their last events are the stream's last. */
const tailBuffers = 8
/**
 * How far back the end reads for the newest event that carries usage, past the last eight: its start at
 * most this many bytes before the stream's end (kept bytes: a usage-only frame taken out is none). Older
 * usage is missed (settled on an estimate); normal answers have it in their last three events. Usage
 * events that add up (messages: a second message_delta) are read back to the newest only, past the eight,
 * and an error or terminal event older than both the eight and the newest usage is not read (an error or
 * the terminal event ends a stream: eight data events and usage after one are none of a usual upstream's).
 */
export const tailBytes = 4096
/**
 * Buffers this small (a ping, a keep-alive comment) do not count among the kept ones, nor do such events
 * among the last eight: however many come after the usage, it stays in reach. Bounded all the same.
 */
const fillerBytes = 64
const maxTailBuffers = 512

/** Whether a frame taken out came before the event at `at` in buffer `id` (`at` is where it was in the buffer as kept). */
const before = (frame: { id: number; at: number }, id: number, at: number) => frame.id < id || (frame.id === id && frame.at <= at)

/**
 * Reads a same-format stream while its bytes pass through: the format's decoder sees only the events
 * that hold one of its markers, and so knows the usage the upstream reported and whether the stream
 * reached its terminal event. Usage and terminal events open and close a stream, so only the first
 * events and (at the end) the last ones are looked at: the buffers in between pass untouched, the last
 * few kept as they are (no copy) until the end. For a client that did not ask for usage, the events
 * whose `choices` is an empty list (found by a byte search) are looked at for the usage-only frame, taken
 * out before it is sent. Searching whole answers for markers costs ~40 µs per 24 KB needle; this costs a
 * few µs per stream.
 */
export class UsageTap {
  readonly #decoder: StreamDecoder
  readonly #eager: Needles
  readonly #last: Needles
  readonly #usageNeedle: Needles
  readonly #dropUsageOnly: ((frame: StreamFrame) => boolean) | undefined
  #headLeft = headEvents
  /** Events read at the head, so the end does not read them again. */
  readonly #read = new Set<string>()
  /** The last event buffers, oldest first, with their number in the stream; those before `#first` are let go. */
  #tail: Array<{ buffer: Buffer; id: number } | undefined> = []
  /** Where the kept tail starts in `#tail`. */
  #first = 0
  /** The kept tail's bytes, and how many of its buffers are over filler size. */
  #held = 0
  #counted = 0
  /** Usage-only frames taken out for a client that did not ask for them, read at the end unless they came after `[DONE]`. */
  #usageOnly: Array<{ id: number; at: number; frame: StreamFrame }> = []
  #buffers = 0
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

  constructor(decoder: StreamDecoder, markers: StreamMarker[], dropUsageOnly?: (frame: StreamFrame) => boolean) {
    this.#decoder = decoder
    const needles = needlesFor(markers)
    this.#eager = needles.eager
    this.#last = needles.last
    this.#usageNeedle = needles.usage
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
    if (this.#headLeft > 0) this.#readHead(events, id)
    if (events.length) {
      this.#tail.push({ buffer: events, id })
      this.#held += events.length
      if (events.length > fillerBytes) this.#counted++
      this.#letGo()
    }
    return events
  }

  /**
   * The oldest kept buffers the end can no longer read are let go as soon as they are (the last
   * `tailBuffers` buffers of more than filler size, the small ones among them too, and `tailBytes`):
   * trimmed only now and then (past twice that), a dripping stream held 4-8 KiB in up to twice as many
   * small buffers, ~18 KB per stream in the JS heap and Buffers at its middle against ~8 KB now (each
   * buffer's objects weigh more than its bytes; test/bench/open-streams.ts with OPEN_HOLD_MS).
   */
  #letGo(): void {
    const tail = this.#tail
    let first = this.#first
    let held = this.#held
    let counted = this.#counted
    for (;;) {
      const { length } = tail[first]!.buffer
      const small = length <= fillerBytes
      if ((counted - (small ? 0 : 1) < tailBuffers || held - length < tailBytes) && tail.length - first <= maxTailBuffers) break
      held -= length
      if (!small) counted--
      tail[first++] = undefined
    }
    this.#held = held
    this.#counted = counted
    // The array itself is cut now and then (amortized): its let-go slots are empty.
    if (first > tailBuffers * 4 && first * 2 > tail.length) {
      this.#tail = tail.slice(first)
      first = 0
    }
    this.#first = first
  }

  /** The head: up to the first data event with a marker (comments before it are no event), `headEvents` at most. */
  #readHead(events: Buffer, id: number): void {
    const dropped = this.#dataSeen ? undefined : this.#usageOnly.find(frame => frame.id === id)
    for (let from = 0; this.#headLeft > 0 && from < events.length;) {
      const [span] = firstSpans(events.subarray(from), 1)
      if (!span) break
      const start = from + span[0]
      const end = from + span[1]
      from += span[2]
      const text = events.toString('latin1', start, end)
      if (!text.includes('data:')) continue
      if (!this.#dataSeen) this.#openedBy(dropped, start)
      this.#headLeft--
      if (!this.#eager(text) && !this.#last(text)) continue
      this.#headLeft = 0
      this.#read.add(`${id}:${start}`)
      // Usage-only frames taken out before it are read first, in stream order (`[DONE]` after one ends the decoder).
      while (this.#usageOnly[0] && before(this.#usageOnly[0], id, start)) this.#decode(this.#usageOnly.shift()!.frame)
      this.#decodeText(events, [start, end, from])
    }
    if (dropped && !this.#dataSeen) this.#openedBy(dropped, events.length)
  }

  /** The first data event kept starts at `start`: a usage-only frame taken out before it was the stream's first. */
  #openedBy(dropped: { at: number; frame: StreamFrame } | undefined, start: number): void {
    this.#dataSeen = true
    if (dropped && dropped.at <= start) this.opener = { at: dropped.at, frame: dropped.frame }
  }

  /**
   * The upstream ended: its last events are read (the last running total once), back to the newest one
   * that carries usage (within `tailBytes`), then the decoder's closing usage taken.
   */
  end(): void {
    const found: Array<[Buffer, Span, number]> = []
    let lastSeen = false
    /** A marked event was found since the last running total the walk passed: the one before it is read too. */
    let totalWanted = false
    let looked = 0
    let skipped = 0
    let done: { id: number; at: number } | undefined
    // The newest usage-only frame taken out: usage is in reach once the walk is back past it.
    const newestOnly = this.#usageOnly.at(-1)
    let usageSeen = false
    walk: for (let b = this.#tail.length - 1, newer = 0; b >= this.#first; newer += this.#tail[b--]!.buffer.length) {
      const { buffer, id } = this.#tail[b]!
      for (let after = buffer.length; after > 0;) {
        // Frames taken out sit between events: one at or past `after` is behind the walk.
        if (newestOnly && (newestOnly.id > id || (newestOnly.id === id && newestOnly.at >= after))) usageSeen = true
        // Checked before the next event is looked for, as most streams stop here.
        if (looked >= endEvents && (usageSeen || newer + buffer.length - after >= tailBytes)) break walk
        const [span] = lastSpans(buffer.subarray(0, after), 1) as [Span]
        if (looked >= endEvents && newer + buffer.length - span[0] > tailBytes) break walk
        after = span[0]
        // The head read the first marked event: nothing before it needs reading.
        if (this.#read.has(`${id}:${span[0]}`)) { looked++; usageSeen = true; continue }
        const text = buffer.toString('latin1', span[0], span[1])
        if (isDone(text)) done = { id, at: span[0] }
        const eager = this.#eager(text)
        // Comments and pings are no event of the stream's end: they neither count nor hide one.
        if (!eager && (!text.includes('data:') || isPing(text)) && !this.#last(text) && ++skipped <= maxTailBuffers) continue
        looked++
        const total = this.#last(text)
        if (eager) {
          found.unshift([buffer, span, id])
          if (!usageSeen && this.#usageNeedle(text)) usageSeen = true
        }
        // The newest running total counts (read in its place: an escaped one after it is newer), and so does
        // the newest before a marked event, which may be an error that carries the counts reported before it.
        if (total && (!lastSeen || totalWanted)) {
          lastSeen = usageSeen = true
          if (!eager) found.unshift([buffer, span, id])
        }
        totalWanted = eager && !total
      }
    }
    this.#tail = []
    this.#first = this.#held = this.#counted = 0
    // A usage-only frame after `[DONE]` is no part of the answer, as the decoder reading every frame finds. In
    // one buffer `at` is where the frame was in the buffer as kept: `[DONE]` right after it starts there.
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
    for (const event of this.#decoder.end()) if (event.type === 'finish' && event.usage) this.usage = event.usage
  }

  #withoutUsageOnly(events: Buffer, id: number): Buffer {
    let dropped: Span[] | undefined
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
      else if (event.type === 'error') {
        this.error ??= event.message
        this.errorUsage ??= event.usage
      }
    }
  }
}

