import type { StreamEvent } from './types.ts'

/** A stream event that carries one piece of text: what a template can stand for. */
export type PieceEvent = Extract<StreamEvent, { delta: string }>

/**
 * A stream chunk's JSON text around its one delta string (`"content":"` in chat chunks, `"text":"` in a
 * messages text delta...). Upstreams write every delta of a run alike but for that string (same ids,
 * indexes, types), so a chunk that starts with the same `before` and ends with the same `after`, with
 * one valid JSON string between, decodes to the template's event with another delta: its JSON.parse
 * (~1 µs each, hundreds per agent answer; ~3 µs under load) is not needed. A chunk that differs anywhere
 * else (a finish reason, usage, a sequence number, a per-chunk random field) is parsed as usual.
 *
 * For a decoder: after decoding a chunk to exactly one such event and nothing else (no state changed
 * that the next alike chunk would change otherwise), keep `ChunkTemplate.of(...)`; before parsing the
 * next chunk, ask `delta(data)`.
 */
export class ChunkTemplate {
  private constructor(readonly before: string, readonly after: string, private readonly event: PieceEvent) {}

  /** The template of a chunk that decoded to exactly `event`, its delta written after `key`; undefined if it cannot be cut there. */
  static of(data: string, key: string, event: PieceEvent): ChunkTemplate | undefined {
    const at = data.indexOf(key)
    if (at === -1 || data.indexOf(key, at + 1) !== -1) return undefined
    const start = at + key.length
    const end = stringEnd(data, start)
    if (end === -1) return undefined
    const template = new ChunkTemplate(data.slice(0, start), data.slice(end), event)
    // The cut must give back the delta the full parse read.
    return template.delta(data) === event.delta ? template : undefined
  }

  /** The delta of a chunk cut like the template, or undefined when it is not (then parse it whole). */
  delta(data: string): string | undefined {
    const { before, after } = this
    // Compared as slices: V8's startsWith walks a long prefix a character at a time (~150 ns for this
    // ~120-character one), a slice compares it at once (~60 ns).
    if (data.length < before.length + after.length || data.slice(0, before.length) !== before || !data.endsWith(after)) return undefined
    const inner = data.slice(before.length, data.length - after.length)
    // Plain text as it is; anything with a quote, an escape or a control character through JSON.parse,
    // which also refuses a quote that would end the string early.
    if (!needsParse(inner)) return inner
    try {
      const text = JSON.parse(`"${inner}"`) as unknown
      return typeof text === 'string' ? text : undefined
    } catch {
      return undefined
    }
  }

  /** The template's event with another delta (a new object: events are handed on). */
  eventWith(delta: string): PieceEvent {
    return { ...this.event, delta }
  }
}

/** Whether the text holds a quote, a backslash or a control character (a JSON string cannot hold them raw). */
function needsParse(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 34 || c === 92) return true
  }
  return false
}

/** Index of the quote that closes the string whose content starts at `start`, or -1. */
function stringEnd(data: string, start: number): number {
  for (let at = data.indexOf('"', start); at !== -1; at = data.indexOf('"', at + 1)) {
    let backslashes = 0
    while (data.charCodeAt(at - 1 - backslashes) === 92) backslashes++
    if (backslashes % 2 === 0) return at
  }
  return -1
}
