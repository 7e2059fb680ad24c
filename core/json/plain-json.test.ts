import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { notPlain, plainCopy, sameJson } from './plain-json.ts'

describe('sameJson: equal exactly when JSON.stringify writes the same text', () => {
  it.each([
    ['equal nested values', { a: [1, 'x', { b: null }], c: true }, { a: [1, 'x', { b: null }], c: true }, true],
    ['key order differs', { a: 1, b: 2 }, { b: 2, a: 1 }, false],
    ['a key with undefined against no key', { a: 1, b: undefined }, { a: 1 }, false],
    ['-0 and 0 (both written 0)', { n: -0 }, { n: 0 }, true],
    ['NaN (written null, but never taken as equal)', { n: Number.NaN }, { n: Number.NaN }, false],
    ['an array against an object with the same keys', ['x'], { 0: 'x' }, false],
    ['lists of different length', [1, 2], [1, 2, 3], false],
    ['a Date (written by toJSON) is never equal', { at: new Date(0) }, { at: new Date(0) }, false],
    ['an object with toJSON is never equal', { v: { toJSON: () => 1 } }, { v: { toJSON: () => 1 } }, false],
    ['an own __proto__ key', JSON.parse('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":1}}'), true],
    ['a string against a number', { v: '1' }, { v: 1 }, false],
    ['an array with its own toJSON against a plain one (written by toJSON)', { v: Object.assign([1], { toJSON: () => 'custom' }) }, { v: [1] }, false],
    ['a plain array against one with its own toJSON', { v: [1] }, { v: Object.assign([1], { toJSON: () => 'custom' }) }, false],
  ])('%s', (_, a, b, equal) => {
    expect(sameJson(a, b)).toBe(equal)
  })

  it('agrees with comparing JSON.stringify on generated values', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      if (sameJson(a, b)) expect(JSON.stringify(a)).toBe(JSON.stringify(b))
      expect(sameJson(a, structuredClone(a))).toBe(true)
    }))
  })
})

describe('plainCopy', () => {
  it('copies plain JSON data into new objects (an own __proto__ key stays a key)', () => {
    const value = JSON.parse('{"a":[1,{"b":"x"}],"__proto__":{"c":2}}')
    const copy = plainCopy(value) as typeof value
    expect(copy).toStrictEqual(value)
    expect(copy).not.toBe(value)
    expect(copy.a[1]).not.toBe(value.a[1])
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(sameJson(copy, value)).toBe(true)
  })

  it('refuses what is not plain data', () => {
    for (const value of [{ at: new Date(0) }, [new Map()], { f: () => 1 }, { s: Symbol('s') }, { n: 1n }, { list: Object.assign([1], { toJSON: () => 'custom' }) }]) expect(plainCopy(value)).toBe(notPlain)
  })

  it('an array with its own toJSON is neither kept nor matched in the turn cache (written as toJSON says, turn after turn)', async () => {
    // A copy dropped the array's toJSON, and sameJson took it for a plain array: the next turn's plain [1,2] got "custom".
    const { jsonBytes } = await import('./json-bytes.ts')
    const { TurnCache } = await import('./turn-cache.ts')
    const cache = new TurnCache()
    const part = (list: unknown[]) => ({ messages: [{ pad: 'x'.repeat(300), list }] })
    for (const value of [part(Object.assign([1, 2], { toJSON: () => 'custom' })), part([1, 2]), part(Object.assign([1, 2], { toJSON: () => 'custom' }))]) {
      expect(jsonBytes(value, undefined, cache, 'scope').toString()).toBe(JSON.stringify(value))
    }
  })
})

describe('with an enumerable key on Object.prototype (a polluted prototype)', () => {
  it('copies own keys only, never matches, and jsonBytes still writes what JSON.stringify writes', async () => {
    const { jsonBytes } = await import('./json-bytes.ts')
    const { TurnCache } = await import('./turn-cache.ts')
    const value = { tools: [{ name: 'Read', schema: { type: 'object', pad: 'p'.repeat(400) } }], n: 1 }
    const cache = new TurnCache()
    jsonBytes(value, undefined, cache)
    const proto = Object.prototype as Record<string, unknown>
    proto.polluted = 'yes'
    try {
      expect(Object.hasOwn(plainCopy(value) as object, 'polluted')).toBe(false)
      expect(sameJson(value, structuredClone(value))).toBe(false)
      expect(jsonBytes(value, undefined, cache).toString()).toBe(JSON.stringify(value))
      expect(cache.counts.written.hits).toBe(0)
    } finally {
      delete proto.polluted
    }
  })
})
