import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { jsonBytes } from './json-bytes.ts'

const same = (value: unknown): void => { expect(jsonBytes(value).toString('utf8')).toBe(JSON.stringify(value)) }

describe('jsonBytes: the bytes of JSON.stringify, built from parts', () => {
  it.each([
    ['a request with lists and nested blocks', { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'caf\u00e9 \u2014 hi' }] }, { role: 'assistant', content: 'ok' }], n: 1 }],
    ['undefined, functions and symbols left out of objects, null in lists', { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('t'), 1], e: 2 }],
    ['an object whose every key is left out', { a: undefined, b: [{ c: undefined }] }],
    ['toJSON at any depth, and class instances', { at: new Date(0), list: [{ toJSON: () => 'custom' }, new Map([[1, 2]])], deep: [[[[{ toJSON: () => 7 }]]]] }],
    ['a key named __proto__ and keys needing escapes', JSON.parse('{"__proto__":{"x":1},"quote\\"key":"v","\\u2028":"line"}')],
    ['lone surrogates (escaped, as JSON.stringify writes them)', { text: '\ud800 and \udc00', list: ['\ud83d\ude00'] }],
    ['values longer than a chunk, and many small ones', { big: 'x'.repeat(40_000), list: Array.from({ length: 3000 }, (_, i) => ({ i, s: '\u00e9'.repeat(i % 7) })) }],
    ['scalars and empty containers', [null, true, 0, -0, 1e21, '', [], {}]],
  ])('%s', (_, value) => same(value))

  it('agrees with JSON.stringify on generated values', () => {
    fc.assert(fc.property(fc.jsonValue(), value => same(value)))
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.array(fc.oneof(fc.jsonValue(), fc.constant(undefined)))), value => same(value)))
  })

  it('throws where JSON.stringify throws (a cycle deep down, a BigInt)', () => {
    const cyclic: Record<string, unknown> = { a: [{ b: {} }] }
    ;((cyclic.a as Array<{ b: Record<string, unknown> }>)[0]!.b).self = cyclic
    expect(() => jsonBytes(cyclic)).toThrow(/circular/i)
    expect(() => jsonBytes({ n: [1n] })).toThrow(/BigInt/)
  })
})
