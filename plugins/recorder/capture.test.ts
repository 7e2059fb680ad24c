import { describe, expect, it } from 'vitest'
import { maskUrlKey, recordHeaders, StreamTap, streamEvents } from './capture.ts'

describe('recordHeaders', () => {
  it.each([
    [{ authorization: 'Bearer sk-abcdefghijklmnop1234' }, { authorization: 'Bearer sk-a...1234' }],
    [{ 'x-api-key': 'sk-abcdefghijklmnop1234', 'content-type': 'application/json' }, { 'x-api-key': 'sk-a...1234', 'content-type': 'application/json' }],
    [{ 'x-goog-api-key': 'short' }, { 'x-goog-api-key': '****' }],
    [{ 'set-cookie': ['a=1', 'b=2'], accept: ['x', 'y'] }, { 'set-cookie': '****', accept: 'x, y' }],
    [new Headers({ Cookie: 'session=abcdefghijklmnopqrstuvwxyz' }), { cookie: 'sess...wxyz' }],
  ])('%j -> %j', (input, expected) => {
    expect(recordHeaders(input as never)).toEqual(expected)
  })
})

describe('maskUrlKey', () => {
  it.each([
    ['/v1beta/models/m:generateContent?key=sk-abcdefghijklmnop1234&alt=sse', '/v1beta/models/m:generateContent?key=sk-a...1234&alt=sse'],
    ['https://up/x?alt=sse&key=abc', 'https://up/x?alt=sse&key=****'],
    ['/v1/messages', '/v1/messages'],
  ])('maskUrlKey(%j)', (url, expected) => expect(maskUrlKey(url)).toBe(expected))
})

describe('StreamTap and streamEvents', () => {
  const bytes = (text: string) => new TextEncoder().encode(text)
  const tapped = (tap: StreamTap) => {
    const { chunks, times, omitted } = tap.result()
    const ends: number[] = []
    let end = 0
    chunks.forEach((chunk, i) => ends.push(end += chunk.byteLength, times[i]!))
    return { bytes: Buffer.concat(chunks), ends, omitted }
  }

  it('keeps the chunks themselves, not copies', () => {
    const tap = new StreamTap(0, 100)
    const chunk = bytes('data: 1\n\n')
    tap.push(chunk, 1)
    expect(tap.result().chunks[0]).toBe(chunk)
  })

  it('cuts SSE at blank lines across chunks, stamped with their arrival', () => {
    const tap = new StreamTap(100, 1000)
    tap.push(bytes('event: a\ndata: 1\n\nda'), 110)
    tap.push(bytes('ta: 2\n\r\n'), 120.5)
    tap.push(bytes('data: 3'), 130)
    const { bytes: all, ends } = tapped(tap)
    expect(streamEvents(all, ends, true)).toEqual([{ at: 10, data: 'event: a\ndata: 1' }, { at: 20.5, data: 'data: 2' }, { at: 30, data: 'data: 3' }])
  })

  it('keeps chunks of a stream that is not SSE, and counts what the cap leaves out', () => {
    const tap = new StreamTap(0, 6)
    tap.push(bytes('[{"a"'), 1)
    tap.push(bytes(':1}'), 2)
    tap.push(bytes(']'), 3)
    const { bytes: all, ends, omitted } = tapped(tap)
    expect(omitted).toBe(1)
    expect(streamEvents(all, ends, false)).toEqual([{ at: 1, data: '[{"a"' }, { at: 3, data: ']' }])
  })

  it('decodes a character split between chunks whole, in the chunk where it ends', () => {
    const text = Buffer.from('data: é\n\n')
    const split = text.indexOf(0xc3) + 1
    expect(streamEvents(text, [split, 1, text.length, 2], true)).toEqual([{ at: 2, data: 'data: é' }])
  })
})
