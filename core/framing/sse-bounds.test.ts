import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { blankLineAfter, lastEventEnd } from './sse-bounds.ts'

/** The plain reading, on text: every run of CR/LF, its line ends counted as the SSE parser counts them (`\r\n` is one). */
function blankRuns(text: string): Array<[number, number]> {
  const runs: Array<[number, number]> = []
  for (const run of text.matchAll(/[\r\n]+/g)) {
    let ends = 0
    for (let i = 0; i < run[0].length; i++, ends++) if (run[0][i] === '\r' && run[0][i + 1] === '\n') i++
    if (ends >= 2) runs.push([run.index, run.index + run[0].length])
  }
  return runs
}

describe('lastEventEnd', () => {
  it.each([
    ['no blank line', 'data: a\n', 0],
    ['one LF event', 'data: a\n\n', 9],
    ['an event and a partial one', 'data: a\n\ndata: b', 9],
    ['CRLF events', 'data: a\r\n\r\ndata: b\r\n\r\n', 22],
    ['CR events', 'data: a\r\rdata: b', 9],
    ['CRLF after an LF event', 'data: a\n\ndata: b\r\n\r\nda', 20],
    ['LF after a CRLF event', 'data: a\r\n\r\ndata: b\n\nx', 20],
    ['LF line, CRLF blank line', 'data: a\n\r\ndata: b', 10],
    ['LF line, CR blank line', 'data: a\n\rdata: b', 9],
    ['CRLF line, CR blank line', 'data: a\r\n\rdata: b', 10],
    ['a CR that may be half of a CRLF', 'data: a\r', 0],
    ['a blank line, then a CR that may be half of a CRLF', 'data: a\n\n\r', 9],
    ['a line end, then a CR that may be half of a CRLF', 'data: a\n\r', 0],
  ])('%s', (_name, text, expected) => {
    expect(lastEventEnd(Buffer.from(text))).toBe(expected)
  })

  const piece = fc.constantFrom('\n', '\r', '\r\n', '\n\n', '\r\n\r\n', '\r\r', '\n\r', 'data: x', ':', ' ', 'é')
  it('is the end of the last run of line ends that holds a blank line (a last CR waiting), for any bytes', () => {
    fc.assert(fc.property(fc.array(piece, { maxLength: 14 }), pieces => {
      const text = pieces.join('')
      const bytes = Buffer.from(text, 'latin1')
      expect(lastEventEnd(bytes)).toBe(blankRuns(text.endsWith('\r') ? text.slice(0, -1) : text).at(-1)?.[1] ?? 0)
    }), { numRuns: 3000 })
  })

  it('blankLineAfter walks the same runs, first to last', () => {
    fc.assert(fc.property(fc.array(piece, { maxLength: 14 }), pieces => {
      const text = pieces.join('')
      const bytes = Buffer.from(text, 'latin1')
      const found: Array<[number, number]> = []
      for (let blank = blankLineAfter(bytes, 0); blank; blank = blankLineAfter(bytes, blank[1])) found.push(blank)
      expect(found).toEqual(blankRuns(text))
    }), { numRuns: 3000 })
  })
})
