import { describe, expect, it } from 'vitest'
import { createSseParser } from './sse.ts'

describe('SSE parser', () => {
  it.each([
    ['one event', ['data: a\n\n'], [{ data: 'a' }]],
    ['named event', ['event: ping\ndata: {}\n\n'], [{ event: 'ping', data: '{}' }]],
    ['split across chunks', ['da', 'ta: hel', 'lo\n', '\n'], [{ data: 'hello' }]],
    ['CRLF line ends split between \\r and \\n', ['data: x\r', '\n\r\n'], [{ data: 'x' }]],
    ['multi-line data', ['data: a\ndata: b\n\n'], [{ data: 'a\nb' }]],
    ['three data lines, one empty', ['data: a\ndata:\ndata: c\n\n'], [{ data: 'a\n\nc' }]],
    ['an empty data line alone', ['data:\n\n', 'event: e\n\n'], [{ data: '' }]],
    ['comments ignored', [': keep-alive\n\ndata: y\n\n'], [{ data: 'y' }]],
    ['no space after colon', ['data:z\n\n'], [{ data: 'z' }]],
    ['\\n-only chunks (the fast path), then CRLF ones', ['data: a\n', '\r\ndata: b\r\n\r\n', 'data: c\n\n'], [{ data: 'a' }, { data: 'b' }, { data: 'c' }]],
    ['a lone \\r line end after \\n-only chunks', ['data: a\n\n', 'data: b\r\r'], [{ data: 'a' }, { data: 'b' }]],
    ['a stream whose last byte is the \\r ending its last line', ['data: x\r'], [{ data: 'x' }]],
  ])('%s', (_name, chunks, expected) => {
    const parser = createSseParser()
    const events = chunks.flatMap(chunk => parser.push(chunk))
    expect([...events, ...parser.end()]).toEqual(expected)
  })

  it('flushes a final event that lacks its blank line', () => {
    const parser = createSseParser()
    expect(parser.push('data: [DONE]')).toEqual([])
    expect(parser.end()).toEqual([{ data: '[DONE]' }])
  })
})
