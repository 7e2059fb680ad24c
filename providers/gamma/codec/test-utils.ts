import { readFileSync } from 'node:fs'
import type { SseEvent, StreamDecoder, StreamEvent } from 'model-proxy'
import { createSseParser } from 'model-proxy/kit/http'

/** Test helpers (not a test file): fixture loading and SSE parsing with the kernel's own parser. */
export function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')
}

export function parseSse(text: string): SseEvent[] {
  const parser = createSseParser()
  return [...parser.push(text), ...parser.end()]
}

/** Wire frames as `{event, data}` with the JSON parsed. */
export function frames(text: string): Array<{ event?: string; data: Record<string, any> }> {
  return parseSse(text).map(sse => ({ event: sse.event, data: JSON.parse(sse.data) }))
}

export function decodeAll(decoder: StreamDecoder, events: SseEvent[]): StreamEvent[] {
  return [...events.flatMap(event => decoder.push(event)), ...decoder.end()]
}
