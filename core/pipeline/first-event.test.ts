import { describe, expect, it } from 'vitest'
import { firstEventOffset } from './first-event.ts'

describe('firstEventOffset', () => {
  it.each([
    ['a data event', 'data: {"a":1}\n\n', 0],
    ['an event with its name', 'event: message_start\ndata: {"type":"message_start"}\n\n', 0],
    ['[DONE]', 'data: [DONE]\n\n', 0],
    ['a comment first', ': keep-alive\n\ndata: {}\n\n', 14],
    ['junk that is not SSE first', '<html>oops</html>\n\ndata: {}\r\n\r\n', 19],
    ['CRLF blocks', ': x\r\n\r\ndata: {"b":2}\r\n\r\n', 7],
    ['data without a space', 'data:{"c":3}\n\n', 0],
    ['multi-line data', 'data: {"d":\ndata: 4}\n\n', 0],
    ['LF lines, a CRLF blank line', ': x\n\r\ndata: {"e":5}\n\r\n', 6],
    ['LF lines, a CR blank line', 'data: {"f":6}\n\r', 0],
    ['nothing but comments', ': a\n\n: b\n\n', undefined],
    ['junk only', '\u0000\u0007garbage }{ \r\nmore garbage\n\n\n', undefined],
  ])('%s', (_name, text, offset) => {
    expect(firstEventOffset(text)).toBe(offset)
  })

  it.each([
    ['JSON cut off', 'data: {"id":\n\n'],
    ['HTML as data', 'data: <html>\n\n'],
    ['after a comment', ': hi\n\ndata: {"x"\n\n'],
  ])('%s: throws', (_name, text) => {
    expect(() => firstEventOffset(text)).toThrow(/not valid JSON/)
  })
})
