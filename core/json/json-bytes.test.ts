import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { jsonBytes } from './json-bytes.ts'
import { ClientBody } from './client-body.ts'
import { TurnCache } from './turn-cache.ts'
import { dataUrl, parseDataUrl } from '../canonical/files.ts'
import { sliced } from './derived-strings.ts'

// The client body each parsed object came from: its long strings are what the writer copies.
const sources = new WeakMap<object, ClientBody>()
const parse = (bytes: Buffer) => {
  const client = new ClientBody(bytes)
  const body = client.object()
  sources.set(body, client)
  return body
}
const rawStringsOf = (body: object) => sources.get(body)?.rawStrings

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

  it('calls toJSON with the key JSON.stringify gives it (a list\'s index, \'\' at the top), at every level and through the cache', () => {
    // Written with JSON.stringify(value) alone, every part's toJSON got '' ({"a":"key "} for {"a":"key a"}); a function's too.
    const named = () => ({ toJSON: (key: string) => `key ${key}` })
    const value = { a: named(), list: [named(), [named()]], messages: [named(), { x: named(), pad: 'p'.repeat(300) }], gone: { toJSON: () => undefined }, fn: Object.assign(() => 1, named()) }
    same(value)
    same(named())
    const cache = new TurnCache()
    for (let turn = 0; turn < 2; turn++) expect(jsonBytes(value, undefined, cache, 'scope').toString()).toBe(JSON.stringify(value))
  })

  it('throws what JSON.stringify throws for a cycle, its path named from the top', () => {
    // A cycle met below the split levels was named from the part, and one under a long string of the client's
    // overflowed the stack (holdsRaw walks without a cycle check) instead of the plain path's TypeError.
    const client = new ClientBody(Buffer.from(JSON.stringify({ long: 'l'.repeat(20_000) })))
    const long = client.object().long
    const deep: Record<string, any> = { a: { b: { c: {} } } }
    deep.a.b.c.back = deep
    const held: Record<string, any> = { messages: [{ text: long, inner: {} }] }
    held.messages[0].inner.self = held.messages[0]
    for (const [value, strings] of [[deep, undefined], [held, client.rawStrings]] as const) {
      let plain: unknown
      try {
        JSON.stringify(value)
      } catch (error) {
        plain = error
      }
      expect(plain).toBeInstanceOf(TypeError)
      expect(() => jsonBytes(value, strings, new TurnCache(), 'scope')).toThrow((plain as Error).message)
    }
  })

  it('throws where JSON.stringify throws (a cycle deep down, a BigInt)', () => {
    const cyclic: Record<string, unknown> = { a: [{ b: {} }] }
    ;((cyclic.a as Array<{ b: Record<string, unknown> }>)[0]!.b).self = cyclic
    expect(() => jsonBytes(cyclic)).toThrow(/circular/i)
    expect(() => jsonBytes({ n: [1n] })).toThrow(/BigInt/)
  })
})

describe('jsonBytes with the client\'s long strings (raw-strings.ts)', () => {
  const long = (seed: string) => `${seed} ${'caf\\u00e9 \\/ \\n "quoted" '.replaceAll('"', '\\"').repeat(700)}`
  const client = `{"system":"${long('s')}","messages":[{"role":"user","content":[{"type":"tool_result","content":"${long('r')}"}]}],"tools":[{"name":"t","description":"${long('d')}","input_schema":{"type":"object","properties":{"p":{"description":"${long('p')}"}}}}]}`
  const bytes = Buffer.from(client)
  const body = parse(bytes) as any
  const strings = rawStringsOf(body)!

  it('copies each long string as the client spelled it; the whole means what JSON.stringify writes', () => {
    // A translation-like reshaping: the strings travel by reference into another structure.
    const upstream = { messages: [{ role: 'system', content: body.system }, { role: 'tool', content: body.messages[0].content[0].content }], tools: [{ type: 'function', function: { name: 't', description: body.tools[0].description, parameters: body.tools[0].input_schema } }] }
    const out = jsonBytes(upstream, strings).toString('utf8')
    expect(JSON.parse(out)).toStrictEqual(JSON.parse(JSON.stringify(upstream)))
    expect(strings.size).toBe(4)
    // The client's own escapes (`\u00e9`, `\/`) went out as written, not as JSON.stringify would write them.
    expect(out.split('caf\\u00e9 \\/').length - 1).toBe(2800)
  })

  it('long runs of small parts between copied strings (joined in runs of at most 32 K characters)', () => {
    const small = Array.from({ length: 4000 }, (_, i) => ({ i, s: '\u00e9'.repeat(i % 9) }))
    const upstream = { a: body.system, list: small, b: [body.tools[0].description, ...small.slice(0, 500), body.system] }
    expect(JSON.parse(jsonBytes(upstream, strings).toString('utf8'))).toStrictEqual(JSON.parse(JSON.stringify(upstream)))
  })

  it('a string changed on the way is written anew, not copied', () => {
    const changed = { content: `${body.system} edited`, same: body.system }
    const out = jsonBytes(changed, strings).toString('utf8')
    expect(JSON.parse(out)).toStrictEqual(changed)
  })

  it('agrees with JSON.stringify\'s meaning on generated values mixing the client\'s strings', () => {
    const pool = [body.system, body.messages[0].content[0].content, body.tools[0].description, 'short', 'x'.repeat(300)]
    const mixed = fc.letrec(tie => ({ node: fc.oneof({ depthSize: 'small' }, fc.constantFrom(...pool), fc.jsonValue({ maxDepth: 1 }), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 })) })).node
    fc.assert(fc.property(mixed, value => {
      expect(JSON.parse(jsonBytes(value, strings).toString('utf8'))).toStrictEqual(JSON.parse(JSON.stringify(value) ?? 'null'))
    }), { numRuns: 300 })
  })
})

describe('jsonBytes with derived strings (data URLs: core/json/derived-strings.ts)', () => {
  // Base64 as a client may spell it in JSON: `/` escaped as `\/` (valid JSON, and how we can tell a copy from a rewrite).
  const base64 = 'QUJD/'.repeat(5000)
  const spelledBase64 = base64.replaceAll('/', '\\/')
  const parsedBody = (json: string) => parse(Buffer.from(json))
  const written = (value: unknown, body: object, cache?: TurnCache) => jsonBytes(value, rawStringsOf(body), cache, cache && 'scope').toString()

  it('writes a data URL joined from a client\'s base64 from the client\'s bytes', () => {
    const body = parsedBody(`{"source":{"data":"${spelledBase64}"}}`) as { source: { data: string } }
    const url = dataUrl('image/png', body.source.data)
    const out = written({ image_url: { url } }, body)
    expect(JSON.parse(out)).toEqual({ image_url: { url: `data:image/png;base64,${base64}` } })
    expect(out).toContain(`"data:image/png;base64,${spelledBase64}"`)
  })

  it('writes the base64 cut out of a client\'s data URL from the client\'s bytes, and the URL joined again', () => {
    const body = parsedBody(`{"url":"data:image/png;base64,${spelledBase64}"}`) as { url: string }
    const split = parseDataUrl(body.url)!
    const out = written({ data: split.data }, body)
    expect(JSON.parse(out)).toEqual({ data: base64 })
    expect(out).toBe(`{"data":"${spelledBase64}"}`)
    const again = written({ url: dataUrl(split.mediaType, split.data) }, body)
    expect(again).toBe(`{"url":"data:image/png;base64,${spelledBase64}"}`)
  })

  it('writes anew what cannot be cut or was not the client\'s', () => {
    // The header spelled with an escape: the cut would not fall between the same characters.
    const body = parsedBody(`{"url":"data:image\\/png;base64,${spelledBase64}"}`) as { url: string }
    const split = parseDataUrl(body.url)!
    expect(written({ data: split.data }, body)).toBe(JSON.stringify({ data: base64 }))
    // A base64 the proxy made itself, joined: nothing of the client's to copy.
    const own = dataUrl('image/png', `${'B'.repeat(20_000)}`)
    expect(written({ url: own }, body)).toBe(JSON.stringify({ url: own }))
  })

  it('cuts a client\'s spelling only where each character before the cut is one byte', () => {
    // The head compared as latin1 matched where it was not the same characters: the spelling `\\\\` (two backslashes)
    // cut after its second byte, `\u005cu005c` after its sixth, `Ã` (C3 83) after its first (bad UTF-8 sent).
    for (const [head, from] of [['\\\\\\\\', 2], ['\u00c3', 1], ['\\u005cu005c', 6]] as const) {
      const body = parsedBody(`{"whole":"${head}${spelledBase64}"}`) as { whole: string }
      const value = { data: sliced(body.whole, from) }
      const out = jsonBytes(value, rawStringsOf(body))
      expect(out.toString('utf8')).toBe(JSON.stringify(value))
    }
  })

  it('does not keep a part holding a derived string in the part cache, and writes it right again', () => {
    const body = parsedBody(`{"source":{"data":"${spelledBase64}"},"pad":"${'p'.repeat(300)}"}`) as { source: { data: string } }
    const cache = new TurnCache()
    const message = (url: string) => ({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }, { role: 'user', content: `${'q'.repeat(400)}` }] })
    const first = written(message(dataUrl('image/png', body.source.data)), body, cache)
    const kept = cache.size
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThan(1000)
    const second = written(message(dataUrl('image/png', body.source.data)), body, cache)
    expect(second).toBe(first)
    expect(JSON.parse(second)).toEqual(message(`data:image/png;base64,${base64}`))
  })
})
