import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { TurnCache } from './turn-cache.ts'
import { jsonBytes } from './json-bytes.ts'
import { parseByParts, wholeBytes } from './json-parts.ts'
import { scanTopLevel } from './body-scan.ts'
import { maxJsonDepth } from './json-depth.ts'
import { RawStrings } from './raw-strings.ts'

const big = (seed: string) => ({ role: 'tool', content: `${seed} ${'x'.repeat(1200)}`, list: [1, 2, { deep: seed }] })

describe('the written side: jsonBytes with the cache', () => {
  it('writes a part equal to a cached one from the cache; the bytes are the same', () => {
    const cache = new TurnCache()
    const first = { model: 'm', messages: [big('a'), big('b')], tools: [big('t')] }
    const once = jsonBytes(first, undefined, cache, 'key-1').toString()
    expect(once).toBe(JSON.stringify(first))
    expect(cache.size).toBeGreaterThan(3 * 1200)
    // The next turn: new objects, the same parts, one more message.
    const next = { model: 'm', messages: [big('a'), big('b'), { role: 'user', content: 'more' }], tools: [big('t')] }
    expect(jsonBytes(next, undefined, cache, 'key-1').toString()).toBe(JSON.stringify(next))
  })

  it('a part edited in place after it was cached is written as it is now, not as it was', () => {
    const cache = new TurnCache()
    const body = { messages: [big('a')] }
    jsonBytes(body, undefined, cache)
    body.messages[0]!.content = `edited ${'y'.repeat(1200)}`
    ;(body.messages[0]!.list[2] as { deep: string }).deep = 'changed'
    expect(jsonBytes(body, undefined, cache).toString()).toBe(JSON.stringify(body))
    // And the original, sent again, still matches what was first cached (the cache kept its own copy).
    const again = { messages: [big('a')] }
    expect(jsonBytes(again, undefined, cache).toString()).toBe(JSON.stringify(again))
  })

  it('keeps what it wrote: a getter that answers differently when read again leaves no bytes that do not spell their value', () => {
    // The copy was made after the write: {n: 0} written, {n: 1} kept with those bytes, and a plain {n: 1} next turn got "n":0.
    const cache = new TurnCache()
    let reads = 0
    const part = Object.defineProperty(big('g'), 'n', { get: () => reads++, enumerable: true })
    jsonBytes({ messages: [part] }, undefined, cache)
    for (const n of [0, 1, 2]) {
      const next = { messages: [{ ...big('g'), n }] }
      expect(jsonBytes(next, undefined, cache).toString()).toBe(JSON.stringify(next))
    }
  })

  it('a part is matched only within its scope (one client key\'s parts are never another\'s shortcut)', () => {
    const cache = new TurnCache()
    const body = () => ({ messages: [big('a')] })
    jsonBytes(body(), undefined, cache, 'key-1')
    const one = cache.size
    expect(jsonBytes(body(), undefined, cache, 'key-2').toString()).toBe(JSON.stringify(body()))
    expect(cache.size).toBe(2 * one)
    jsonBytes(body(), undefined, cache, 'key-1')
    expect(cache.size).toBe(2 * one)
  })

  it('parts smaller than about 256 bytes, and values that are not plain data, are not kept', () => {
    const cache = new TurnCache()
    jsonBytes({ messages: [{ role: 'user', content: 'short' }], at: { when: new Date(0), pad: 'x'.repeat(2000) } }, undefined, cache)
    expect(cache.size).toBe(0)
  })

  it('keeps a few parts per place; past its byte budget the client keys used longest ago go first', () => {
    const cache = new TurnCache(10_000, 2)
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
    // Client 1's part is still there; the first key's ('') and client 2's, used longest ago, are gone.
    expect(cache.findWritten('key-1', 'messages', 0, big('1'))).toBeDefined()
    expect(cache.findWritten('key-8', 'messages', 0, big('8'))).toBeDefined()
    expect(cache.findWritten('', 'messages', 0, big('c'))).toBeUndefined()
    expect(cache.findWritten('key-2', 'messages', 0, big('2'))).toBeUndefined()
  })

  it('agrees with JSON.stringify over a run of bodies sharing one cache', () => {
    const cache = new TurnCache(200_000, 3)
    const part = fc.oneof(fc.constantFrom(big('a'), big('b'), big('c')), fc.jsonValue({ maxDepth: 3 }), fc.record({ pad: fc.constantFrom('p'.repeat(1100), 'q'.repeat(1100)), v: fc.jsonValue({ maxDepth: 2 }) }))
    const body = fc.record({ messages: fc.array(part, { maxLength: 5 }), tools: fc.array(part, { maxLength: 3 }), system: part })
    fc.assert(fc.property(fc.array(body, { minLength: 1, maxLength: 6 }), (bodies) => {
      for (const value of bodies) expect(jsonBytes(value, undefined, cache).toString()).toBe(JSON.stringify(value))
    }), { numRuns: 200 })
  })
})

/** One body parsed by parts with `cache`, as ClientBody does; its long strings noted. */
function parse(text: string, cache: TurnCache, scope = 'key-1') {
  const bytes = Buffer.from(text)
  const strings = new RawStrings(bytes)
  return { value: parseByParts(bytes, scanTopLevel(bytes, maxJsonDepth)!, wholeBytes, strings, { cache, scope }), strings }
}

const escaped = (seed: string) => `${seed} caf\\u00e9 \\/ \\n \\"quoted\\" ${'line\\n'.repeat(2800)}`
const message = (seed: string) => `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t${seed}","content":"${escaped(seed)}"}]}`
const tool = (seed: string) => `{"name":"tool${seed}","description":"d${seed}","input_schema":{"type":"object","properties":{"p":{"type":"string","description":"${'x'.repeat(900)}"}}}}`
const body = (messages: string[], tools: string[]) => `{"model":"m","messages":[${messages.join(',')}],"tools":[${tools.join(',')}],"stream":true}`

describe('the read side: parsing by parts with the cache', () => {
  it('a body that repeats the last one\'s parts parses to the same value, with its long strings noted at their new places', () => {
    const cache = new TurnCache()
    const first = parse(body([message('a'), message('b')], [tool('1'), tool('2')]), cache)
    expect(first.value).toStrictEqual(JSON.parse(body([message('a'), message('b')], [tool('1'), tool('2')])))
    expect(cache.size).toBeGreaterThan(0)
    // The next turn: the same history and tools, one message more.
    const text = body([message('a'), message('b'), message('c')], [tool('1'), tool('2')])
    const next = parse(text, cache)
    expect(next.value).toStrictEqual(JSON.parse(text))
    expect(cache.counts.read.hits).toBe(4)
    // Each noted long string's spelling is where the new body has it.
    const strings = JSON.parse(text).messages.map((m: any) => m.content[0].content)
    for (const string of strings) expect(JSON.parse(next.strings.spelling(string)!.toString())).toBe(string)
    expect(next.strings.size).toBe(first.strings.size + 1)
  })

  it('two conversations under one key at once (an agent and its subagent) both hit', () => {
    const cache = new TurnCache()
    const agent = (n: number) => body(['a', 'b', 'c', 'd'].slice(0, n).map(message), [tool('1')])
    const subagent = (n: number) => body(['x', 'y', 'z', 'w'].slice(0, n).map(message), [tool('2')])
    parse(agent(2), cache)
    parse(subagent(2), cache)
    const before = cache.counts.read.hits
    parse(agent(3), cache)
    parse(subagent(3), cache)
    expect(cache.counts.read.hits - before).toBe(6)
  })

  it('every body gets its own objects: an edit of one parsed body reaches neither the cache nor the next body', () => {
    const cache = new TurnCache()
    const text = body([message('a')], [tool('1')])
    const one = parse(text, cache).value as any
    one.messages[0].content[0].content = 'edited'
    one.tools[0].input_schema.properties.p.type = 'number'
    const two = parse(text, cache).value as any
    expect(two).toStrictEqual(JSON.parse(text))
    two.messages[0].role = 'assistant'
    expect(parse(text, cache).value).toStrictEqual(JSON.parse(text))
  })

  it('a part is found only under its client key', () => {
    const cache = new TurnCache()
    const text = body([message('a')], [tool('1')])
    parse(text, cache, 'key-1')
    const one = cache.size
    parse(text, cache, 'key-2')
    expect(cache.size).toBe(2 * one)
    parse(text, cache, 'key-1')
    expect(cache.size).toBe(2 * one)
  })

  it('agrees with JSON.parse over a run of bodies sharing one cache', () => {
    const cache = new TurnCache(100_000, 3)
    const part = fc.constantFrom(message('a'), message('b'), message('c'), '{"role":"user","content":"short"}', `{"k":${JSON.stringify('é'.repeat(700))}}`, `"${escaped('s')}"`, '[1,2,{"a":null}]')
    const bodies = fc.array(fc.tuple(fc.array(part, { maxLength: 6 }), fc.array(fc.constantFrom(tool('1'), tool('2'), tool('3')), { maxLength: 3 })), { minLength: 1, maxLength: 6 })
    fc.assert(fc.property(bodies, (list) => {
      for (const [messages, tools] of list) {
        const text = body(messages, tools)
        const { value, strings } = parse(text, cache)
        expect(value).toStrictEqual(JSON.parse(text))
        // Every noted spelling means its string.
        for (let i = 0; i < strings.size; i++) {
          const { value: string } = strings.entry(i)
          expect(JSON.parse(strings.spelling(string)!.toString())).toBe(string)
        }
      }
    }), { numRuns: 150 })
  })
})
