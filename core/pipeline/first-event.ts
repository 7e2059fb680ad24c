/** Thrown when the upstream's first event is broken: the attempt failed before the first byte. */
export class BrokenFirstEvent extends Error {
  constructor(data: string) {
    super(`the upstream's first event is not valid JSON: ${JSON.stringify(data.slice(0, 60))}`)
    this.name = 'BrokenFirstEvent'
  }
}

/**
 * Where the first real event starts in whole SSE events from an upstream (UTF-16 offset), or undefined
 * when there is none yet. Blocks before it without a `data:` line (comments, junk that is not SSE) are
 * skipped; the first event's data must be JSON (or `[DONE]`), or the stream is broken before its first
 * byte and must not reach the client as half a frame. Only ever run on the head of a stream.
 */
export function firstEventOffset(text: string): number | undefined {
  let start = 0
  while (start < text.length) {
    const blank = blankLineIn(text, start)
    const end = blank?.[0] ?? text.length
    const data: string[] = []
    for (const line of text.slice(start, end).split(/\r\n|\n|\r/)) {
      if (line.startsWith('data:')) data.push(line.slice(line.charCodeAt(5) === 32 ? 6 : 5))
    }
    if (data.length) {
      const payload = data.join('\n')
      if (payload !== '[DONE]') {
        try { JSON.parse(payload) } catch { throw new BrokenFirstEvent(payload) }
      }
      // From its first line: line ends before it close what came before (a `\r\n` cut between chunks).
      while (text.charCodeAt(start) === 10 || text.charCodeAt(start) === 13) start++
      return start
    }
    start = blank?.[1] ?? text.length
  }
  return undefined
}

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
