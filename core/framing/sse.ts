import type { SseEvent } from '../canonical/codec.ts'

/** Incremental SSE parser: text chunks in, whole events out (`\n`, `\r\n`, `\r` line ends, multi-line `data:`, comments). */
export function createSseParser() {
  let buffer = ''
  let event: string | undefined
  // The first data line apart: no array per event (~30 KB of garbage per 200-delta answer).
  let data: string | undefined
  let moreData: string[] | undefined

  function line(text: string, out: SseEvent[]) {
    if (text === '') {
      if (data !== undefined) {
        const joined = moreData ? `${data}\n${moreData.join('\n')}` : data
        out.push(event === undefined ? { data: joined } : { event, data: joined })
      }
      event = undefined
      data = undefined
      moreData = undefined
      return
    }
    if (text.charCodeAt(0) === 58 /* : */) return
    const colon = text.indexOf(':')
    const field = colon === -1 ? text : text.slice(0, colon)
    let value = colon === -1 ? '' : text.slice(colon + 1)
    if (value.charCodeAt(0) === 32) value = value.slice(1)
    if (field === 'data') {
      if (data === undefined) data = value
      else (moreData ??= []).push(value)
    }
    else if (field === 'event') event = value
  }

  return {
    push(chunk: string): SseEvent[] {
      const out: SseEvent[] = []
      buffer += chunk
      let start = 0
      // indexOf jumps between line ends, the next \r and \n apart (most upstreams send no \r: one search).
      let cr = buffer.indexOf('\r')
      let lf = buffer.indexOf('\n')
      for (;;) {
        if (cr !== -1 && cr < start) cr = buffer.indexOf('\r', start)
        if (lf !== -1 && lf < start) lf = buffer.indexOf('\n', start)
        const i = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf
        if (i === -1 || (i === cr && i === buffer.length - 1)) break // a last \r may be half of \r\n: wait for the next chunk
        line(buffer.slice(start, i), out)
        start = i === cr && lf === i + 1 ? i + 2 : i + 1
      }
      buffer = buffer.slice(start)
      return out
    },
    /** Upstream closed: flush a final event that lacked its blank line. */
    end(): SseEvent[] {
      const out: SseEvent[] = []
      // A last \r waited for a \n that never came: it ended its line.
      if (buffer) line(buffer.endsWith('\r') ? buffer.slice(0, -1) : buffer, out)
      buffer = ''
      line('', out)
      return out
    },
  }
}

export const formatSse = (data: string, event?: string): string => event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`
