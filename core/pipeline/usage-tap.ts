import type { StreamDecoder, StreamFrame, StreamMarker } from '../canonical/codec.ts'
import type { Usage } from '../canonical/types.ts'

/** Where one whole SSE event sits in a buffer of whole events: [start, end of its text, end with its blank line]. */
type Span = [number, number, number]

const newline = 0x0a
const carriage = 0x0d

/** The start of the event around `at`: just past the blank line before it. */
function eventStart(buffer: Buffer, at: number): number {
  const lf = buffer.lastIndexOf('\n\n', at)
  const crlf = buffer.lastIndexOf('\r\n\r\n', at)
  const cr = buffer.lastIndexOf('\r\r', at)
  return Math.max(0, lf === -1 ? 0 : lf + 2, crlf === -1 ? 0 : crlf + 4, cr === -1 ? 0 : cr + 2)
}

/** The end of the event around `at` and the end of its blank line (the buffer's end when it has none). */
function eventEnd(buffer: Buffer, at: number): [number, number] {
  let end = buffer.length
  let after = buffer.length
  for (const separator of ['\n\n', '\r\n\r\n', '\r\r']) {
    const found = buffer.indexOf(separator, at)
    if (found !== -1 && found < end) { end = found; after = found + separator.length }
  }
  return [end, after]
}

/** Whether the JSON value after a key at `from` is what the marker wants (`{` or `"`). */
function valueIs(buffer: Buffer, from: number, kind: 'object' | 'string'): boolean {
  let i = from
  while (i < buffer.length && buffer[i]! <= 0x20) i++
  if (buffer[i] !== 0x3a /* : */) return false
  i++
  while (i < buffer.length && buffer[i]! <= 0x20) i++
  return buffer[i] === (kind === 'object' ? 0x7b : 0x22)
}

/** One SSE event's text -> its frame (`event:` and joined `data:` lines). */
export function frameOf(text: string): StreamFrame | undefined {
  let event: string | undefined
  let data: string | undefined
  for (const line of text.split(/\r\n|\n|\r/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const field = line.slice(0, colon)
    const value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1)
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`
    else if (field === 'event') event = value
  }
  if (data === undefined) return undefined
  return event === undefined ? { data } : { event, data }
}

/** Whether a stream's last bytes, cut without their blank line, are still one whole event (its data JSON, or `[DONE]`). */
export function isWholeEvent(bytes: Buffer): boolean | undefined {
  const frame = frameOf(bytes.toString('utf8'))
  if (!frame) return undefined
  if (frame.data.trim() === '[DONE]') return true
  try { JSON.parse(frame.data); return true } catch { return false }
}

/**
 * Reads a same-format stream while its bytes pass through: the format's decoder sees only the events
 * that hold one of its markers (found by a byte search; everything else is never decoded), and so
 * knows the usage the upstream reported and whether the stream reached its terminal event. A marker
 * for a running total (`last`) is read once, at the end, from the last event that held it.
 */
export class UsageTap {
  readonly #decoder: StreamDecoder
  readonly #eager: Array<{ bytes: Buffer; value?: 'object' | 'string' }> = []
  readonly #last: Array<{ bytes: Buffer; value?: 'object' | 'string' }> = []
  readonly #dropUsageOnly: ((frame: StreamFrame) => boolean) | undefined
  /** The last event holding a `last` marker, not read yet (a copy: the chunk it came in is the client's). */
  #pendingLast: Buffer | undefined
  usage: Usage | undefined
  /** An error event the upstream sent (it reaches the client as it came). */
  error: string | undefined

  constructor(decoder: StreamDecoder, markers: StreamMarker[], dropUsageOnly?: (frame: StreamFrame) => boolean) {
    this.#decoder = decoder
    for (const marker of markers) (marker.last ? this.#last : this.#eager).push({ bytes: Buffer.from(marker.text, 'latin1'), value: marker.value })
    this.#dropUsageOnly = dropUsageOnly
  }

  /** Whether the format's terminal event came (a decoder that cannot tell: always). */
  terminated(): boolean {
    return this.#decoder.terminated?.() ?? true
  }

  /** Whole events on their way to the client: read the marked ones; the same bytes back, less a usage-only frame the client did not ask for. */
  read(events: Buffer): Buffer {
    let spans: Span[] | undefined
    for (const marker of this.#eager) {
      for (let at = events.indexOf(marker.bytes); at !== -1; at = events.indexOf(marker.bytes, at + marker.bytes.length)) {
        if (marker.value && !valueIs(events, at + marker.bytes.length, marker.value)) continue
        const start = eventStart(events, at)
        if (spans?.some(span => span[0] === start)) continue
        const [end, after] = eventEnd(events, at)
        ;(spans ??= []).push([start, end, after])
        at = end
      }
    }
    for (const marker of this.#last) {
      for (let at = events.lastIndexOf(marker.bytes); at !== -1; at = at ? events.lastIndexOf(marker.bytes, at - 1) : -1) {
        if (marker.value && !valueIs(events, at + marker.bytes.length, marker.value)) continue
        const start = eventStart(events, at)
        // Read now with an eager marker's event: nothing left to read at the end.
        this.#pendingLast = spans?.some(span => span[0] === start) ? undefined : Buffer.from(events.subarray(start, eventEnd(events, at)[0]))
        break
      }
    }
    if (!spans) return events
    if (spans.length > 1) spans.sort((a, b) => a[0] - b[0])
    let dropped: Span[] | undefined
    for (const span of spans) {
      const frame = frameOf(events.toString('utf8', span[0], span[1]))
      if (!frame) continue
      this.#decode(frame)
      if (this.#dropUsageOnly?.(frame)) (dropped ??= []).push(span)
    }
    return dropped ? without(events, dropped) : events
  }

  /** The upstream ended: the last running total is read. */
  end(): void {
    const last = this.#pendingLast
    this.#pendingLast = undefined
    if (last) {
      const frame = frameOf(last.toString('utf8'))
      if (frame) this.#decode(frame)
    }
    for (const event of this.#decoder.end()) if (event.type === 'finish' && event.usage) this.usage = event.usage
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
