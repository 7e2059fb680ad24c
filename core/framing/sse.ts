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
      // Most upstreams end lines with \n alone: jump between them.
      if (buffer.indexOf('\r') === -1) {
        for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n', start)) {
          line(buffer.slice(start, i), out)
          start = i + 1
        }
        buffer = buffer.slice(start)
        return out
      }
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i)
        if (c !== 10 && c !== 13) continue
        if (c === 13 && i === buffer.length - 1) break // maybe half of \r\n: wait for the next chunk
        line(buffer.slice(start, i), out)
        if (c === 13 && buffer.charCodeAt(i + 1) === 10) i++
        start = i + 1
      }
      buffer = buffer.slice(start)
      return out
    },
    /** Upstream closed: flush a final event that lacked its blank line. */
    end(): SseEvent[] {
      const out: SseEvent[] = []
      if (buffer) line(buffer, out)
      buffer = ''
      line('', out)
      return out
    },
  }
}

export function formatSse(data: string, event?: string): string {
  return event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`
}
