import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { scanTopLevel, type BodyShape } from './body-scan.ts'
import { ClientBody } from './client-body.ts'

const scan = (text: string) => scanTopLevel(Buffer.from(text), 256)
const valueOf = (text: string, key: string) => {
  const range = scan(text)?.fields.get(key)
  // Ranges are byte offsets (a non-ASCII key before them moves them past the string's indexes).
  return range && Buffer.from(text).toString('utf8', range.start, range.end)
}

describe('scanTopLevel', () => {
  it.each([
    ['{"model":"m","stream":true}', 'model', '"m"'],
    ['{"model":"m","stream":true}', 'stream', 'true'],
    [' { "a" : [1, {"model": "inner"}] , "model" : "outer" } ', 'model', '"outer"'],
    ['{"s":"quote \\" and } brace","model":"m"}', 'model', '"m"'],
    ['{"s":"ends with backslash \\\\","model":"m"}', 'model', '"m"'],
    ['{"n":-1.5e3,"model":null}', 'n', '-1.5e3'],
    ['{"n":-1.5e3,"model":null}', 'model', 'null'],
    ['{"é":"x","model":"m"}', 'model', '"m"'],
    ['{}', 'model', undefined],
  ])('%s: %s = %s', (text, key, expected) => {
    expect(valueOf(text, key)).toBe(expected)
  })

  it.each([
    ['not an object', '[1,2]'],
    ['empty', ''],
    ['unterminated string', '{"model":"m'],
    ['unclosed object', '{"a":{"b":1}'],
    ['missing colon', '{"model" "m"}'],
    ['trailing garbage', '{"model":"m"} x'],
    ['missing value', '{"model":}'],
  ])('%s: left to the full parse', (_, text) => {
    expect(scan(text)).toBeUndefined()
  })

  it('decodes a key spelled with escapes, as JSON.parse does', () => {
    expect(valueOf('{"mod\\u0065l":"m"}', 'model')).toBe('"m"')
    expect([...scan('{"model":"a","mod\\u0065l":"b"}')!.repeated]).toEqual(['model'])
    expect(scan('{"bad\\x":"m"}')).toBeUndefined()
  })

  it('reports keys written twice (the last wins, as JSON.parse)', () => {
    const result = scan('{"model":"a","x":{"model":"n"},"model":"b"}')!
    expect([...result.repeated]).toEqual(['model'])
    expect(valueOf('{"model":"a","model":"b"}', 'model')).toBe('"b"')
  })

  it('notes the elements of each top-level list on the same pass (the last of a repeated key)', () => {
    const text = '{"messages":[{"a":[1,2]}, "x" ,[3],{"b":"]"}],"n":[],"tools":[1],"tools":{"k":[9]},"again":[0],"again":[[5],6]}'
    const result = scan(text)!
    const elements = (key: string) => result.lists!.get(key)?.map(range => text.slice(range.start, range.end))
    expect(elements('messages')).toEqual(['{"a":[1,2]}', '"x"', '[3]', '{"b":"]"}'])
    expect(elements('n')).toEqual([])
    expect(elements('tools')).toBeUndefined()
    expect(elements('again')).toEqual(['[5]', '6'])
    // A list one level too deep is refused as before.
    expect(scanTopLevel(Buffer.from('{"a":[[[1]]]}'), 3)).toBeUndefined()
    expect(scanTopLevel(Buffer.from('{"a":[[1]]}'), 3)).toBeDefined()
  })

  it('refuses nesting deeper than the limit', () => {
    expect(scanTopLevel(Buffer.from(`{"a":${'['.repeat(10)}${']'.repeat(10)}}`), 5)).toBeUndefined()
    expect(scanTopLevel(Buffer.from(`{"a":${'['.repeat(3)}${']'.repeat(3)}}`), 5)).toBeDefined()
  })

  it('agrees with JSON.parse on every top-level value of generated objects', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
      const text = JSON.stringify(object, null, Math.random() < 0.5 ? 1 : undefined)
      const result = scanTopLevel(Buffer.from(text), 1000)
      if (!result) return false
      // Against the text parsed whole, not the generated object: JSON has no -0 (it reads back as 0).
      const parsed = JSON.parse(text) as Record<string, unknown>
      for (const key of Object.keys(object)) {
        const range = result.fields.get(key)!
        expect(JSON.parse(Buffer.from(text).toString('utf8', range.start, range.end))).toEqual(parsed[key])
        const list = result.lists!.get(key)
        if (Array.isArray(parsed[key])) expect(list!.map(element => JSON.parse(Buffer.from(text).toString('utf8', element.start, element.end)))).toEqual(parsed[key])
        else expect(list).toBeUndefined()
      }
      return result.fields.size === Object.keys(object).length
    }))
  })
})

describe('ClientBody', () => {
  it('reads fields without parsing the whole, then the whole once', () => {
    const body = new ClientBody(Buffer.from('{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}'))
    expect(body.field('model')).toBe('m')
    expect(body.field('stream')).toBe(true)
    expect(body.field('absent')).toBeUndefined()
    expect(body.parsed).toBe(false)
    expect(body.object().messages).toEqual([{ role: 'user', content: 'hi' }])
    expect(body.parsed).toBe(true)
    expect(body.object()).toBe(body.object())
  })

  it('a malformed body is the client 400 at once', () => {
    expect(() => new ClientBody(Buffer.from('{"model":'))).toThrow(/not valid JSON/)
    expect(() => new ClientBody(Buffer.from('[]'))).toThrow(/must be a JSON object/)
  })

  it('a value the scan passes but JSON rejects is refused on reading too, as the plain parse would', () => {
    expect(() => new ClientBody(Buffer.from('{"model":"m","max_tokens":1x}'))).toThrow(/not valid JSON/)
    const large = `{"model":"m","messages":[${JSON.stringify({ role: 'user', content: 'x'.repeat(40_000) })},{"role":"user","content":"a",}]}`
    expect(() => new ClientBody(Buffer.from(large))).toThrow(/not valid JSON/)
  })
})

describe('ClientBody.mayContain', () => {
  it.each([
    ['{"a":"bXBzaWcxABC"}', true],
    ['{"a":"xbXBzaWcx"}', true],
    ['{"a":"bXBzaWc"}', false],
    ['{"a":"XXXX bXBzaWcy bXBzaWcx"}', true],
    ['{"a":"XBzaWcx"}', false],
    ['{"a":"b"}', false],
    // The marker spelled with an escaped letter means the same: "maybe"; escapes of other characters do not.
    ['{"a":"\\u0062XBzaWcx"}', true],
    ['{"a":"bXBza\\u0057cx"}', true],
    ['{"a":"caf\\u00e9 \\u003c\\u001b[0m"}', false],
  ])('%s: %s', (text, expected) => {
    expect(new ClientBody(Buffer.from(text)).mayContain('bXBzaWcx')).toBe(expected)
  })

  it('never says no where the parsed strings hold the marker, however the body spells them', () => {
    // Each character of a string written as itself or as a \u escape (either case of hex).
    const spelled = (text: string, escapes: boolean[]) => [...text].map((c, i) => escapes[i % escapes.length] ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c).join('')
    const word = fc.oneof(fc.constant('bXBzaWcx'), fc.constantFrom('bXBza', 'Wcx', 'b', 'x', 'XBzaWcxb'), fc.string({ maxLength: 6, unit: fc.constantFrom('b', 'X', 'B', 'z', 'a', 'W', 'c', 'x', 'q', '1') }))
    fc.assert(fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }), fc.boolean(), (words, escapes, upper) => {
      const inner = spelled(words.join(''), escapes)
      const text = `{"a":"${upper ? inner.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`) : inner}"}`
      const holds = (JSON.parse(text) as { a: string }).a.includes('bXBzaWcx')
      if (holds) expect(new ClientBody(Buffer.from(text)).mayContain('bXBzaWcx')).toBe(true)
    }), { numRuns: 2000 })
  })
})

describe('ClientBody.skeleton', () => {
  const chatShape: Record<string, BodyShape> = { messages: [{ role: true }], tools: [{ type: true, function: { name: true } }], temperature: true }
  // The skeleton picked from the bytes (`skeleton` hands a small body's check parse instead).
  const skeleton = (text: string) => new ClientBody(Buffer.from(text)).writtenSkeleton(chatShape)

  it.each([
    ['{"messages":[{"role":"user","content":"hi"},{"role":"tool","content":[{"type":"text","text":"}"}]}]}', { messages: [{ role: 'user' }, { role: 'tool' }] }],
    ['{"messages":[],"temperature":0.5,"other":1}', { messages: [], temperature: 0.5 }],
    ['{"messages":["text", null, 3, {"content":"no role"}]}', { messages: ['text', null, 3, {}] }],
    ['{"messages":"not a list"}', { messages: 'not a list' }],
    ['{"tools":[{"type":"function","function":{"name":"Read","parameters":{"type":"object"}}},{"type":"custom"}]}', { tools: [{ type: 'function', function: { name: 'Read' } }, { type: 'custom' }] }],
    ['{"tools":[{"type":"function","function":"Read"}]}', { tools: [{ type: 'function', function: 'Read' }] }],
    [' { "messages" : [ { "role" : "user" } , { "role" : "assistant" } ] } ', { messages: [{ role: 'user' }, { role: 'assistant' }] }],
    ['{"messages":[{"role":"user","role":"assistant"}],"tools":[{"function":{"name":"a"},"function":"b"}]}', { messages: [{ role: 'assistant' }], tools: [{ function: 'b' }] }],
    ['{"tools":[{"type":"function","function":{"parameters":{"a":[[{"name":"inner"}]]},"name":"outer"}}]}', { tools: [{ type: 'function', function: { name: 'outer' } }] }],
  ])('%s', (text, expected) => {
    expect(skeleton(text)).toEqual(expected)
  })

  it('a malformed picked value: the full parse reports it (the client hears a 400)', () => {
    expect(() => skeleton('{"messages":[{"role":tru}]}')).toThrow(/not valid JSON/)
  })

  it('agrees with picking from JSON.parse on generated chat-like bodies', () => {
    const message = fc.oneof(fc.record({ role: fc.jsonValue(), content: fc.jsonValue() }, { requiredKeys: [] }), fc.jsonValue())
    fc.assert(fc.property(fc.array(message), fc.jsonValue(), (messages, temperature) => {
      const body = { messages, temperature, model: 'm' }
      const pick = (value: unknown) => value && typeof value === 'object' && !Array.isArray(value) ? ('role' in value ? { role: (value as { role: unknown }).role } : {}) : value
      // Through JSON, as the proxy sees it (JSON has no -0).
      const expected = JSON.parse(JSON.stringify({ messages: messages.map(pick), temperature }))
      expect(new ClientBody(Buffer.from(JSON.stringify(body))).writtenSkeleton({ messages: [{ role: true }], temperature: true })).toEqual(expected)
    }))
  })

  it('has() answers from the scan', () => {
    const body = new ClientBody(Buffer.from('{"input":"x","messages":null}'))
    expect([body.has('input'), body.has('messages'), body.has('instructions'), body.parsed]).toEqual([true, true, false, false])
  })
})
