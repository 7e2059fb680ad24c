import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { JsonPartCache } from './json-part-cache.ts'
import { jsonBytes } from './json-bytes.ts'

const big = (seed: string) => ({ role: 'tool', content: `${seed} ${'x'.repeat(1200)}`, list: [1, 2, { deep: seed }] })

describe('jsonBytes with a part cache', () => {
  it('writes a part equal to a cached one from the cache; the bytes are the same', () => {
    const cache = new JsonPartCache()
    const first = { model: 'm', messages: [big('a'), big('b')], tools: [big('t')] }
    const once = jsonBytes(first, undefined, cache).toString()
    expect(once).toBe(JSON.stringify(first))
    expect(cache.size).toBeGreaterThan(3 * 1200)
    // The next turn: new objects, the same parts, one more message.
    const next = { model: 'm', messages: [big('a'), big('b'), { role: 'user', content: 'more' }], tools: [big('t')] }
    expect(jsonBytes(next, undefined, cache).toString()).toBe(JSON.stringify(next))
  })

  it('a part edited in place after it was cached is written as it is now, not as it was', () => {
    const cache = new JsonPartCache()
    const body = { messages: [big('a')] }
    jsonBytes(body, undefined, cache)
    body.messages[0]!.content = `edited ${'y'.repeat(1200)}`
    ;(body.messages[0]!.list[2] as { deep: string }).deep = 'changed'
    expect(jsonBytes(body, undefined, cache).toString()).toBe(JSON.stringify(body))
    // And the original, sent again, still matches what was first cached (the cache kept its own copy).
    const again = { messages: [big('a')] }
    expect(jsonBytes(again, undefined, cache).toString()).toBe(JSON.stringify(again))
  })

  it('a part is matched only within its scope (one client key\'s parts are never another\'s shortcut)', () => {
    const cache = new JsonPartCache()
    const body = () => ({ messages: [big('a')] })
    jsonBytes(body(), undefined, cache, 'key-1')
    const one = cache.size
    expect(jsonBytes(body(), undefined, cache, 'key-2').toString()).toBe(JSON.stringify(body()))
    expect(cache.size).toBe(2 * one)
    jsonBytes(body(), undefined, cache, 'key-1')
    expect(cache.size).toBe(2 * one)
  })

  it('parts smaller than about 256 bytes, and values that are not plain data, are not kept', () => {
    const cache = new JsonPartCache()
    jsonBytes({ messages: [{ role: 'user', content: 'short' }], at: { when: new Date(0), pad: 'x'.repeat(2000) } }, undefined, cache)
    expect(cache.size).toBe(0)
  })

  it('keeps a few parts per place; past its byte budget the places used longest ago go first', () => {
    const cache = new JsonPartCache({ maxBytes: 10_000, bytes: 0 }, 2)
    for (const seed of ['a', 'b', 'c']) jsonBytes({ messages: [big(seed)] }, undefined, cache)
    expect(cache.size).toBeLessThanOrEqual(2 * 1300)
    // Eight clients (scopes) at once, one part each, in a budget for about seven: client 1 keeps using its part.
    const one = cache.size
    for (const client of ['1', '2', '3', '4', '5', '6', '7', '8']) {
      jsonBytes({ messages: [big(client)] }, undefined, cache, `key-${client}`)
      jsonBytes({ messages: [big('1')] }, undefined, cache, 'key-1')
    }
    expect(cache.size).toBeLessThanOrEqual(10_000)
    expect(cache.size).toBeGreaterThan(10_000 - 2 * one)
    // Client 1's part is still there; the first places (no scope) and client 2's, used longest ago, are gone.
    expect(cache.find('key-1\u0000messages', 0, big('1'))).toBeDefined()
    expect(cache.find('key-8\u0000messages', 0, big('8'))).toBeDefined()
    expect(cache.find('messages', 0, big('c'))).toBeUndefined()
    expect(cache.find('key-2\u0000messages', 0, big('2'))).toBeUndefined()
  })

  it('agrees with JSON.stringify over a run of bodies sharing one cache', () => {
    const cache = new JsonPartCache({ maxBytes: 200_000, bytes: 0 }, 3)
    const part = fc.oneof(fc.constantFrom(big('a'), big('b'), big('c')), fc.jsonValue({ maxDepth: 3 }), fc.record({ pad: fc.constantFrom('p'.repeat(1100), 'q'.repeat(1100)), v: fc.jsonValue({ maxDepth: 2 }) }))
    const body = fc.record({ messages: fc.array(part, { maxLength: 5 }), tools: fc.array(part, { maxLength: 3 }), system: part })
    fc.assert(fc.property(fc.array(body, { minLength: 1, maxLength: 6 }), (bodies) => {
      for (const value of bodies) expect(jsonBytes(value, undefined, cache).toString()).toBe(JSON.stringify(value))
    }), { numRuns: 200 })
  })
})
