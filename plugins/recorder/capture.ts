import { maskSecret } from 'model-proxy/internal'
import type { RecordedBody, RecordedStream, StreamEvent } from './types.ts'

/** Headers whose values are credentials: kept masked (`sk-a...7890`), never whole. */
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'x-goog-api-key', 'x-management-key', 'cookie', 'set-cookie', 'api-key'])

const maskHeader = (value: string) => {
  const bearer = /^(Bearer|Basic)\s+(.+)$/i.exec(value)
  return bearer ? `${bearer[1]} ${maskSecret(bearer[2])}` : maskSecret(value)
}

/** Any header shape -> plain strings, credentials masked. */
export function recordHeaders(headers: Headers | Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  const add = (name: string, value: string) => { out[name] = secretHeaders.has(name.toLowerCase()) ? maskHeader(value) : value }
  if (headers instanceof Headers) headers.forEach((value, name) => add(name, value))
  else for (const [name, value] of Object.entries(headers)) if (value !== undefined) add(name, Array.isArray(value) ? value.join(', ') : String(value))
  return out
}

/** A body cut at `cap` characters (the cut is counted). */
export function capBody(text: string, cap: number): RecordedBody {
  return text.length <= cap ? { text } : { text: text.slice(0, cap), truncated: text.length - cap }
}

/** A URL with its `key` query parameter masked (generateContent clients and upstreams may send the key there). */
export function maskUrlKey(url: string): string {
  return url.replace(/([?&]key=)([^&#]*)/g, (_, head: string, key: string) => head + maskSecret(decodeURIComponent(key)))
}

/**
 * A stream's chunks as they pass, stamped with milliseconds since `start` (performance.now()); at the
 * end, SSE is cut into its events at blank lines (each stamped when its last byte arrived, raw text
 * kept), any other stream (a JSON array) keeps its chunks. Past `cap` characters chunks are counted, not kept.
 */
export class StreamTap {
  private readonly chunks: StreamEvent[] = []
  private readonly decoder = new TextDecoder()
  private size = 0
  private omitted = 0

  constructor(private readonly start: number, private readonly cap: number) {}

  push(chunk: Uint8Array, now = performance.now()): void {
    const data = this.decoder.decode(chunk, { stream: true })
    if (this.size + data.length > this.cap) { this.omitted++; return }
    this.size += data.length
    this.chunks.push({ at: Math.round((now - this.start) * 100) / 100, data })
  }

  result(sse: boolean): RecordedStream {
    const rest = this.decoder.decode()
    if (rest && this.chunks.length) this.chunks.at(-1)!.data += rest
    const events = sse ? sseEvents(this.chunks) : this.chunks.filter(chunk => chunk.data.trim())
    return this.omitted ? { events, omitted: this.omitted } : { events }
  }
}

function sseEvents(chunks: StreamEvent[]): StreamEvent[] {
  const events: StreamEvent[] = []
  let carry = ''
  for (const chunk of chunks) {
    const parts = (carry + chunk.data).split(/\r?\n\r?\n|\r\r/)
    carry = parts.pop()!
    for (const part of parts) if (part.trim()) events.push({ at: chunk.at, data: part })
  }
  if (carry.trim()) events.push({ at: chunks.at(-1)!.at, data: carry })
  return events
}
