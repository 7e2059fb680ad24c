import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { scanTopLevel } from './body-scan.ts'
import { parseByParts } from './json-parts.ts'
import { ClientBody, bodySourceOf } from './client-body.ts'

/** Parsed by parts with every value over `whole` bytes split: must be what JSON.parse makes of the whole. */
const byParts = (text: string, whole: number) => {
  const bytes = Buffer.from(text)
  return parseByParts(bytes, scanTopLevel(bytes, 256)!, whole)
}

describe('parseByParts', () => {
  it.each([
    ['plain', '{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"text","text":"yo"}]}]}'],
    ['repeated key: first position, last value', '{"a":1,"b":[1,2],"a":{"x":[3]}}'],
    ['non-ASCII and escapes', '{"s":"em — dash \\u00e9 \\" \\\\","a":["ü",{"k\\u0065y":"v"}]}'],
    ['empty containers', '{"a":[],"b":{},"c":[[],{}],"d":""}'],
    ['scalars', '{"n":-1.5e3,"t":true,"f":false,"z":null}'],
  ])('%s', (_, text) => {
    for (const whole of [0, 8, 1 << 20]) expect(byParts(text, whole)).toStrictEqual(JSON.parse(text))
  })

  it('`__proto__` is an own key, as JSON.parse makes it, at every level (no prototype is set)', () => {
    const text = '{"__proto__":{"polluted":true},"a":[{"__proto__":[1]}]}'
    const body = byParts(text, 0)
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype)
    expect(Object.hasOwn(body, '__proto__')).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(JSON.stringify(body)).toBe(JSON.stringify(JSON.parse(text)))
  })

  it('matches JSON.parse on arbitrary objects, split at every size', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), fc.integer({ min: 0, max: 64 }), (object, whole) => {
      const text = JSON.stringify(object)
      expect(JSON.stringify(byParts(text, whole))).toBe(JSON.stringify(JSON.parse(text)))
    }), { numRuns: 300 })
  })

  it('a malformed part throws (the caller then parses the whole to say what is wrong)', () => {
    expect(() => byParts('{"a":[1,2,tru],"b":1}', 0)).toThrow()
  })
})

describe('ClientBody.object on a large body', () => {
  const big = { model: 'm', messages: Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i} — ${'x'.repeat(2000)}` })), tools: [{ name: 't', input_schema: { type: 'object' } }] }

  it('is the value JSON.parse makes, with the client bytes and their text behind it', () => {
    const bytes = Buffer.from(JSON.stringify(big))
    const body = new ClientBody(bytes).object()
    expect(body).toStrictEqual(big)
    expect(bodySourceOf(body)?.bytes).toBe(bytes)
    expect(JSON.parse(bodySourceOf(body)!.text)).toStrictEqual(big)
  })

  it('a malformed value deep inside is still the client\'s 400 with JSON.parse\'s own message', () => {
    const text = JSON.stringify(big).replace('"turn 3', '"turn 3"x')
    expect(() => new ClientBody(Buffer.from(text)).object()).toThrow(/not valid JSON/)
  })
})
