import type { StreamFrame, WireCodec } from '../canonical/codec.ts'
import { httpErrorStatus } from './upstream-status.ts'
import { escapedLetter, isPing } from './stream-markers.ts'

/** Thrown when the upstream's first event is broken: the attempt failed before the first byte. */
export class BrokenFirstEvent extends Error {
  constructor(data: string) {
    super(`the upstream's first event is not valid JSON: ${JSON.stringify(data.slice(0, 60))}`)
    this.name = 'BrokenFirstEvent'
  }
}

/**
 * Thrown when the upstream's first event is an error (relays and gateways send one after a 200): the
 * attempt failed before the first byte, with `status`; `data` is the event's JSON, the error's body.
 */
export class ErrorFirstEvent extends Error {
  constructor(readonly status: number, readonly data: string) {
    super(`the upstream's first event is an error (status ${status})`)
    this.name = 'ErrorFirstEvent'
  }
}

const namesError = /"error"\s*:\s*(?!null)|"type"\s*:\s*"error"|failed/

/**
 * The upstream's first frame as an ErrorFirstEvent when its format's codec decodes it to an error (and
 * nothing before it), else undefined. Passthrough and translated streams both ask this of the same
 * frame, so both fail alike. The status is the decoder's: each format knows its own error names.
 */
export function firstEventError(codec: WireCodec, frame: StreamFrame): ErrorFirstEvent | undefined {
  // Every format's error names itself so (or spells it with escapes, as JSON.parse reads them); most first
  // events do not (a created response's `"error":null` neither), and skip the decoder.
  if (!namesError.test(frame.data) && !escapedLetter(frame.data)) return undefined
  let first
  try { first = codec.stream.createDecoder().push(frame)[0] } catch { return undefined }
  if (first?.type !== 'error') return undefined
  // A plugin's decoder may give a status that is no HTTP error: the answer failed as a bad gateway's.
  return new ErrorFirstEvent(httpErrorStatus(first.status) ?? 502, frame.data)
}

/**
 * The first real event in whole SSE events from an upstream: where it starts (UTF-16 offset), where the
 * next one may (past its blank line) and its frame, or undefined when there is none yet. Blocks before it without a `data:` line (comments, junk
 * that is not SSE) are skipped; the first event's data must be JSON (or `[DONE]`), or the stream is
 * broken before its first byte and must not reach the client as half a frame. Only ever run on the
 * head of a stream.
 */
export function firstEvent(text: string): { at: number; next: number; frame: StreamFrame } | undefined {
  let start = 0
  while (start < text.length) {
    const blank = blankLineIn(text, start)
    const end = blank?.[0] ?? text.length
    const data: string[] = []
    let event: string | undefined
    for (const line of text.slice(start, end).split(/\r\n|\n|\r/)) {
      if (line.startsWith('data:')) data.push(line.slice(line.charCodeAt(5) === 32 ? 6 : 5))
      else if (line.startsWith('event:')) event = line.slice(line.charCodeAt(6) === 32 ? 7 : 6)
    }
    if (data.length) {
      const payload = data.join('\n')
      if (payload !== '[DONE]') {
        try { JSON.parse(payload) } catch { throw new BrokenFirstEvent(payload) }
      }
      // From its first line: line ends before it close what came before (a `\r\n` cut between chunks).
      while (text.charCodeAt(start) === 10 || text.charCodeAt(start) === 13) start++
      return { at: start, next: blank?.[1] ?? text.length, frame: event === undefined ? { data: payload } : { event, data: payload } }
    }
    start = blank?.[1] ?? text.length
  }
  return undefined
}

/**
 * `[DONE]` before any answer opens none: a stream that is only its end (an upstream that gave up) fails
 * over on either path, as one that sends nothing does, never a 200 with an empty answer.
 */
export const isDoneFrame = (frame: StreamFrame): boolean => frame.data.length < 16 && frame.data.trim() === '[DONE]'

/**
 * Where the event that opens a same-format answer starts in whole events, or undefined. The stream's
 * first data event fails the attempt when it is an error (throws ErrorFirstEvent), as a translated
 * stream's does, whatever follows (`head.seenFirst` says it was looked at). A ping the format's decoder
 * reads as nothing opens no answer, as it primes no translated stream: a stream of pings that ends
 * still fails over, and pings before the answer are dropped; so does a `[DONE]` (`isDoneFrame`).
 */
export function openingEvent(codec: WireCodec | undefined, text: string, head: { seenFirst: boolean }): number | undefined {
  for (let from = 0; ;) {
    const found = firstEvent(text.slice(from))
    if (!found) return undefined
    if (isDoneFrame(found.frame)) {
      from += found.next
      continue
    }
    if (!head.seenFirst) {
      head.seenFirst = true
      const error = codec && firstEventError(codec, found.frame)
      if (error) throw error
    }
    // A ping spelled with escapes is one to the decoder too.
    const mayPing = isPing(found.frame.data) || escapedLetter(found.frame.data)
    if (!codec || !mayPing || codec.stream.createDecoder().push(found.frame).length) return from + found.at
    from += found.next
  }
}

/** Where the first real event starts (`firstEvent`), or undefined. */
export const firstEventOffset = (text: string): number | undefined => firstEvent(text)?.at

/** The first blank line in text at or after `from` (a CR/LF run holding two line ends, as in sse-bounds.ts): [start, end]. */
function blankLineIn(text: string, from: number): [number, number] | undefined {
  const isLineEnd = (at: number) => text.charCodeAt(at) === 10 || text.charCodeAt(at) === 13
  for (let i = from; i < text.length; i++) {
    if (!isLineEnd(i)) continue
    const start = i
    let ends = 0
    for (; isLineEnd(i); i++, ends++) if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) i++
    if (ends >= 2) return [start, i]
  }
  return undefined
}
