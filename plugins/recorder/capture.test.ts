import { describe, expect, it } from 'vitest'
import { capBody, maskUrlKey, recordHeaders, StreamTap } from './capture.ts'

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

describe('capBody and maskUrlKey', () => {
  it.each([
    ['abc', 5, { text: 'abc' }],
    ['abcdef', 4, { text: 'abcd', truncated: 2 }],
  ])('capBody(%j, %d)', (text, cap, expected) => expect(capBody(text, cap)).toEqual(expected))

  it.each([
    ['/v1beta/models/m:generateContent?key=sk-abcdefghijklmnop1234&alt=sse', '/v1beta/models/m:generateContent?key=sk-a...1234&alt=sse'],
    ['https://up/x?alt=sse&key=abc', 'https://up/x?alt=sse&key=****'],
    ['/v1/messages', '/v1/messages'],
  ])('maskUrlKey(%j)', (url, expected) => expect(maskUrlKey(url)).toBe(expected))
})

describe('StreamTap', () => {
  const bytes = (text: string) => new TextEncoder().encode(text)
  it('cuts SSE at blank lines across chunks, stamped with their arrival', () => {
    const tap = new StreamTap(100, 1000)
    tap.push(bytes('event: a\ndata: 1\n\nda'), 110)
    tap.push(bytes('ta: 2\n\r\n'), 120.5)
    tap.push(bytes('data: 3'), 130)
    expect(tap.result(true)).toEqual({ events: [{ at: 10, data: 'event: a\ndata: 1' }, { at: 20.5, data: 'data: 2' }, { at: 30, data: 'data: 3' }] })
  })
  it('keeps chunks of a stream that is not SSE, and counts what the cap leaves out', () => {
    const tap = new StreamTap(0, 6)
    tap.push(bytes('[{"a"'), 1)
    tap.push(bytes(':1}'), 2)
    tap.push(bytes(']'), 3)
    expect(tap.result(false)).toEqual({ events: [{ at: 1, data: '[{"a"' }, { at: 3, data: ']' }], omitted: 1 })
  })
})
