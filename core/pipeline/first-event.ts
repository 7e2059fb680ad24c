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
  const separator = /\r\n\r\n|\n\n|\r\r/g
  let start = 0
  while (start < text.length) {
    separator.lastIndex = start
    const end = separator.exec(text)?.index ?? text.length
    const data: string[] = []
    for (const line of text.slice(start, end).split(/\r\n|\n|\r/)) {
      if (line.startsWith('data:')) data.push(line.slice(line.charCodeAt(5) === 32 ? 6 : 5))
    }
    if (data.length) {
      const payload = data.join('\n')
      if (payload !== '[DONE]') {
        try { JSON.parse(payload) } catch { throw new BrokenFirstEvent(payload) }
      }
      return start
    }
    start = separator.lastIndex > end ? separator.lastIndex : text.length
  }
  return undefined
}
