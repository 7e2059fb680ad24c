import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ParsedPartCache } from './parsed-part-cache.ts'
import { parseByParts, wholeBytes } from './json-parts.ts'
import { scanTopLevel } from './body-scan.ts'
import { maxJsonDepth } from './json-depth.ts'
import { RawStrings } from './raw-strings.ts'

/** One body parsed by parts with `cache`, as ClientBody does; its long strings noted. */
function parse(text: string, cache: ParsedPartCache, scope = 'key-1') {
  const bytes = Buffer.from(text)
  const scan = scanTopLevel(bytes, maxJsonDepth)!
  const strings = new RawStrings(bytes)
  return { value: parseByParts(bytes, scan, wholeBytes, strings, { cache, scope }), strings, bytes }
}

const escaped = (seed: string) => `${seed} caf\\u00e9 \\/ \\n \\"quoted\\" ${'line\\n'.repeat(2800)}`
const message = (seed: string) => `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t${seed}","content":"${escaped(seed)}"}]}`
const tool = (seed: string) => `{"name":"tool${seed}","description":"${escaped(`d${seed}`)}","input_schema":{"type":"object","properties":{"p":{"type":"string","description":"${'x'.repeat(900)}"}}}}`
const body = (messages: string[], tools: string[]) => `{"model":"m","messages":[${messages.join(',')}],"tools":[${tools.join(',')}],"stream":true}`

describe('parsing by parts with a cache of parsed parts', () => {
  it('a body that repeats the last one\'s parts parses to the same value, with its long strings noted at their new places', () => {
    const cache = new ParsedPartCache()
    const first = parse(body([message('a'), message('b')], [tool('1'), tool('2')]), cache)
    expect(first.value).toStrictEqual(JSON.parse(body([message('a'), message('b')], [tool('1'), tool('2')])))
    const kept = cache.size
    expect(kept).toBeGreaterThan(0)
    // The next turn: the same history and tools, one message more.
    const text = body([message('a'), message('b'), message('c')], [tool('1'), tool('2')])
    const next = parse(text, cache)
    expect(next.value).toStrictEqual(JSON.parse(text))
    // Each noted long string's spelling is where the new body has it.
    const strings = JSON.parse(text).messages.map((m: any) => m.content[0].content)
    for (const string of strings) expect(JSON.parse(next.strings.spelling(string)!.toString())).toBe(string)
    expect(next.strings.size).toBe(first.strings.size + 1)
  })

  it('every body gets its own objects: an edit of one parsed body reaches neither the cache nor the next body', () => {
    const cache = new ParsedPartCache()
    const text = body([message('a')], [tool('1')])
    const one = parse(text, cache).value as any
    one.messages[0].content[0].content = 'edited'
    one.tools[0].input_schema.properties.p.type = 'number'
    const two = parse(text, cache).value as any
    expect(two).toStrictEqual(JSON.parse(text))
    two.messages[0].role = 'assistant'
    expect(parse(text, cache).value).toStrictEqual(JSON.parse(text))
  })

  it('a part is found only within its scope (a client key)', () => {
    const cache = new ParsedPartCache()
    const text = body([message('a')], [tool('1')])
    parse(text, cache, 'key-1')
    const one = cache.size
    parse(text, cache, 'key-2')
    expect(cache.size).toBe(2 * one)
    parse(text, cache, 'key-1')
    expect(cache.size).toBe(2 * one)
  })

  it('agrees with JSON.parse over a run of bodies sharing one cache', () => {
    const cache = new ParsedPartCache({ maxBytes: 100_000, bytes: 0 }, 3)
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
