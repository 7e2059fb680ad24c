import { maskSecret } from 'model-proxy/kit/access'
import { Utf8Decoder } from 'model-proxy/kit/http'
import type { StreamEvent } from './types.ts'

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

/** A URL with its `key` query parameter masked (generateContent clients and upstreams may send the key there). */
export function maskUrlKey(url: string): string {
  return url.replace(/([?&]key=)([^&#]*)/g, (_, head: string, key: string) => head + maskSecret(decodeURIComponent(key)))
}

/** What a tap kept: the chunks themselves (not copied), when each arrived, and how many the cap left out. */
export interface TappedStream { chunks: Uint8Array[]; times: number[]; omitted: number }

/**
 * A stream's chunks as they pass, stamped with milliseconds since `start` (performance.now()). The
 * chunks are kept as they are, not decoded or copied: a tap on the request path costs an array push.
 * Past `cap` bytes chunks are counted, not kept. Reading cuts the bytes into events (packed.ts).
 */
export class StreamTap {
  private readonly tapped: TappedStream = { chunks: [], times: [], omitted: 0 }
  private size = 0

  constructor(private readonly start: number, private readonly cap: number) {}

  push(chunk: Uint8Array, now = performance.now()): void {
    if (this.size + chunk.byteLength > this.cap) { this.tapped.omitted++; return }
    this.size += chunk.byteLength
    this.tapped.chunks.push(chunk)
    this.tapped.times.push(Math.round((now - this.start) * 100) / 100)
  }

  result(): TappedStream { return this.tapped }
}

/**
 * A stream's events from its bytes and chunk ends ([end, ms, ...]): SSE is cut at blank lines (each
 * event stamped when its last byte arrived, raw text kept), any other stream (a JSON array) keeps its
 * chunks.
 */
export function streamEvents(bytes: Uint8Array, chunks: readonly number[], sse: boolean): StreamEvent[] {
  const decoder = new Utf8Decoder()
  const decoded: StreamEvent[] = []
  let from = 0
  for (let i = 0; i + 1 < chunks.length; i += 2) {
    const end = Math.min(chunks[i]!, bytes.byteLength)
    decoded.push({ at: chunks[i + 1]!, data: decoder.write(bytes.subarray(from, end)) })
    from = end
  }
  const rest = decoder.end()
  if (rest && decoded.length) decoded.at(-1)!.data += rest
  return sse ? sseEvents(decoded) : decoded.filter(chunk => chunk.data.trim())
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
