import type { StreamFrame } from '../canonical/codec.ts'
import { blankLineAfter } from '../framing/sse-bounds.ts'

/** Whole SSE events in a buffer of whole events, found by their blank lines without decoding the buffer. */

const newline = 0x0a
const carriage = 0x0d

/** Where one whole SSE event sits in a buffer of whole events: [start, end of its text, end with its blank line]. */
export type Span = [number, number, number]

/** The first `count` events of a buffer of whole events. */
export function firstSpans(buffer: Buffer, count: number): Span[] {
  const spans: Span[] = []
  let start = 0
  while (spans.length < count && start < buffer.length) {
    const blank = blankLineAfter(buffer, start)
    spans.push(blank ? [start, blank[0], blank[1]] : [start, buffer.length, buffer.length])
    start = blank ? blank[1] : buffer.length
  }
  return spans
}

/** One SSE event's text -> its frame (`event:` and joined `data:` lines). */
export function frameOf(text: string): StreamFrame | undefined {
  // What upstreams send (a `data:` line, after an `event:` line or not, `\n` line ends) without a split.
  const lf = text.indexOf('\n')
  if (lf === -1 ? text.startsWith('data:') : text.startsWith('event:') && text.startsWith('data:', lf + 1) && text.indexOf('\n', lf + 1) === -1) {
    if (!text.includes('\r')) return lf === -1 ? { data: valueAt(text, 5, text.length) } : { event: valueAt(text, 6, lf), data: valueAt(text, lf + 6, text.length) }
  }
  let event: string | undefined
  let data: string | undefined
  for (const line of text.split(/\r\n|\n|\r/)) {
    const colon = line.indexOf(':')
    if (colon === 0) continue
    // A line without a colon is a field with an empty value (`data` alone is a data line), as sse.ts reads it.
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : valueAt(line, colon + 1, line.length)
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`
    else if (field === 'event') event = value
  }
  if (data === undefined) return undefined
  return event === undefined ? { data } : { event, data }
}

/** A field's value from `from` (just past its colon) to `to`, less the one space that may follow the colon. */
const valueAt = (text: string, from: number, to: number) => text.slice(text.charCodeAt(from) === 32 ? from + 1 : from, to)

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

/** The buffer without the given events (and their blank lines). */
export function without(buffer: Buffer, spans: Span[]): Buffer {
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
