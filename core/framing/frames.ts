import type { StreamFrame, StreamFraming } from '../canonical/codec.ts'
import { createSseParser } from './sse.ts'

/** Incremental: feed decoded text as it arrives, get whole frames; `end()` flushes what is left. */
export interface FrameParser { push(chunk: string): StreamFrame[]; end(): StreamFrame[] }

/** Newline-delimited JSON: one frame per non-blank line (`\n` or `\r\n`). */
export function createNdjsonParser(): FrameParser {
  let buffer = ''
  const take = (line: string, out: StreamFrame[]) => {
    const data = line.endsWith('\r') ? line.slice(0, -1) : line
    if (data.trim()) out.push({ data })
  }
  const push = (chunk: string): StreamFrame[] => {
    buffer += chunk
    const out: StreamFrame[] = []
    let start = 0
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
      take(buffer.slice(start, end), out)
      start = end + 1
    }
    buffer = buffer.slice(start)
    return out
  }
  // The last line, unended, is taken as if its \n came.
  return { push, end: () => push('\n') }
}

/** One JSON array streamed (`[{...},\n{...}]`): a frame per element, cut by depth and strings; a split element waits for its end. */
export function createJsonArrayParser(): FrameParser {
  let buffer = ''
  let depth = 0
  let inString = false
  let escaped = false
  let scanned = 0
  let elementStart = -1
  return {
    push(chunk) {
      buffer += chunk
      const out: StreamFrame[] = []
      for (let i = scanned; i < buffer.length; i++) {
        const c = buffer[i]
        if (inString) {
          if (escaped) escaped = false
          else if (c === '\\') escaped = true
          else if (c === '"') inString = false
          continue
        }
        if (c === '"') inString = true
        else if (c === '{' || c === '[') {
          if (depth === 1) elementStart = i // inside the outer array: an element starts
          depth++
        } else if (c === '}' || c === ']') {
          depth--
          if (depth === 1 && elementStart !== -1) {
            out.push({ data: buffer.slice(elementStart, i + 1) })
            elementStart = -1
          }
        }
      }
      buffer = elementStart === -1 ? '' : buffer.slice(elementStart)
      if (elementStart !== -1) elementStart = 0
      scanned = buffer.length
      return out
    },
    end: () => [],
  }
}

/** The parser for a codec's framing (SSE when it names none). */
export const createFrameParser = (framing: StreamFraming = 'sse'): FrameParser =>
  framing === 'ndjson' ? createNdjsonParser() : framing === 'json-array' ? createJsonArrayParser() : createSseParser()
