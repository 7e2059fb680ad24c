import { describe, expect, it } from 'vitest'
import { createFrameParser } from './frames.ts'
import type { StreamFraming } from '../canonical/codec.ts'

const frames = (framing: StreamFraming, chunks: string[]) => {
  const parser = createFrameParser(framing)
  return [...chunks.flatMap(chunk => parser.push(chunk)), ...parser.end()].map(frame => frame.data)
}

describe('stream frame parsers', () => {
  it.each([
    ['one line per frame', ['{"a":1}\n{"a":2}\n'], ['{"a":1}', '{"a":2}']],
    ['a line split across chunks', ['{"a":', '1}\n{"b"', ':2}\n'], ['{"a":1}', '{"b":2}']],
    ['CRLF and blank lines', ['{"a":1}\r\n\r\n{"a":2}\r\n'], ['{"a":1}', '{"a":2}']],
    ['a last line without its newline', ['{"a":1}\n{"done":true}'], ['{"a":1}', '{"done":true}']],
  ])('ndjson: %s', (_name, chunks, expected) => {
    expect(frames('ndjson', chunks)).toEqual(expected)
  })

  it.each([
    ['elements of one array', ['[{"a":1},\n{"a":2}]'], ['{"a":1}', '{"a":2}']],
    ['an element split across chunks', ['[{"a":"x', '}y"', ',"b":[1,2]}', ',{"c":{}}]'], ['{"a":"x}y","b":[1,2]}', '{"c":{}}']],
    ['escaped quotes and brackets inside strings', ['[{"t":"say \\"]{\\" ok"}]'], ['{"t":"say \\"]{\\" ok"}']],
    ['whitespace and chunk boundaries between elements', ['[\n', '{"a":1}', '\n,', '\r\n{"a":2}\n', ']'], ['{"a":1}', '{"a":2}']],
  ])('json-array: %s', (_name, chunks, expected) => {
    expect(frames('json-array', chunks)).toEqual(expected)
  })

  it('sse stays the default', () => {
    expect(createFrameParser().push('data: {"a":1}\n\n')).toEqual([{ data: '{"a":1}' }])
  })
})
