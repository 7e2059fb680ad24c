import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { scanTopLevel } from './body-scan.ts'
import { parseByParts } from './json-parts.ts'
import { ClientBody } from './client-body.ts'
import { RawStrings } from './raw-strings.ts'

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

  it('is the value JSON.parse makes', () => {
    expect(new ClientBody(Buffer.from(JSON.stringify(big))).object()).toStrictEqual(big)
  })

  it('a malformed value deep inside is still the client\'s 400 with JSON.parse\'s own message', () => {
    const text = JSON.stringify(big).replace('"turn 3', '"turn 3"x')
    expect(() => new ClientBody(Buffer.from(text)).object()).toThrow(/not valid JSON/)
  })
})

describe('parseByParts with long strings noted (raw-strings.ts)', () => {
  const long = (seed: string) => `${seed} ${'line of code\\n\\t\\"quoted\\" \\u00e9 — '.repeat(450)}`
  const parsed = (text: string, whole = 32_768) => {
    const bytes = Buffer.from(text)
    const strings = new RawStrings(bytes)
    return { bytes, strings, value: parseByParts(bytes, scanTopLevel(bytes, 256)!, whole, strings) }
  }

  it.each([
    ['strings in messages, blocks and tools', `{"model":"m","system":"${long('sys')}","messages":[{"role":"user","content":"${long('a')}"},{"role":"assistant","content":[{"type":"text","text":"${long('b')}"},{"type":"tool_use","id":"t","input":{"path":"${long('c')}"}}]}],"tools":[{"name":"x","description":"${long('d')}","input_schema":{"type":"object"}}]}`],
    ['a long key stays a key', `{"${long('key')}":1,"a":["${long('v')}"]}`],
    ['`__proto__` holding a long string', `{"__proto__":"${long('p')}","a":{"__proto__":"${long('q')}"}}`],
    ['a client string that starts like a stand-in (parsed as before, nothing noted there)', `{"a":"\\u00000","b":["${long('r')}","\\u00001"]}`],
    ['repeated keys: the last one wins', `{"a":"${long('first')}","a":"${long('second')}"}`],
  ])('%s: the value JSON.parse makes, every noted string spelled as the client wrote it', (_, text) => {
    for (const whole of [0, 64, 32_768]) {
      const { bytes, strings, value } = parsed(text, whole)
      expect(value).toStrictEqual(JSON.parse(text))
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
      const walk = (v: unknown): void => {
        if (typeof v === 'string') {
          const spelling = strings.spelling(v)
          if (spelling) expect(JSON.parse(spelling.toString('utf8'))).toBe(v)
          if (spelling) expect(bytes.indexOf(spelling)).toBeGreaterThan(-1)
        } else if (v && typeof v === 'object') for (const item of Object.values(v)) walk(item)
      }
      walk(value)
    }
    // A text spelling `\u0000` is parsed without stand-ins (one could be taken for the client's string).
    expect(parsed(text).strings.size > 0).toBe(!text.includes('\\u0000'))
  })

  it('matches JSON.parse on generated bodies with long strings anywhere', () => {
    const longText = fc.string({ minLength: 260, maxLength: 400, unit: 'binary' })
    const value = fc.letrec(tie => ({
      node: fc.oneof({ depthSize: 'small' }, longText, fc.jsonValue({ maxDepth: 1 }), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 })),
    })).node
    fc.assert(fc.property(fc.dictionary(fc.string(), value, { minKeys: 1 }), fc.integer({ min: 0, max: 512 }), (object, whole) => {
      const text = JSON.stringify(object)
      expect(JSON.stringify(parsed(text, whole).value)).toBe(JSON.stringify(JSON.parse(text)))
    }), { numRuns: 200 })
  })

  it('bytes that are not valid UTF-8 are read as JSON.parse reads them and never noted', () => {
    const bytes = Buffer.concat([Buffer.from(`{"a":"${'x'.repeat(300)}`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])
    const strings = new RawStrings(bytes)
    const value = parseByParts(bytes, scanTopLevel(bytes, 256)!, 32_768, strings)
    expect(value).toStrictEqual(JSON.parse(bytes.toString('utf8')))
    expect(strings.size).toBe(0)
  })
})

describe('large string tokens read without JSON.parse when plain (base64: images, files)', () => {
  const body = (token: string) => Buffer.from(`{"model":"m","data":${token},"n":1}`)
  const parse = (bytes: Buffer) => parseByParts(bytes, scanTopLevel(bytes, 256)!, 32_768, new RawStrings(bytes))
  const base64 = 'iVBORw0KGgo+AAAA/'.repeat(3000)

  it.each([
    ['plain ASCII', JSON.stringify(base64)],
    ['with escapes', JSON.stringify(`${base64}\n"quoted"\\`)],
    ['spelled with \\/', `"${base64.replaceAll('/', '\\/')}"`],
    ['not ASCII', JSON.stringify(`${base64} — é 😀`)],
    ['DEL and spaces', JSON.stringify(`${base64}\u007f   `)],
  ])('%s: the value JSON.parse gives', (_, token) => {
    const bytes = body(token)
    expect(parse(bytes)).toStrictEqual(JSON.parse(bytes.toString('utf8')))
  })

  it.each([
    ['a raw newline', `"${base64}\nmore"`],
    ['a raw tab', `"${base64}\tmore"`],
    ['a raw NUL', `"${base64}\u0000"`],
  ])('%s in the token: refused, as JSON.parse refuses it', (_, token) => {
    const bytes = body(token)
    expect(() => JSON.parse(bytes.toString('utf8'))).toThrow()
    expect(() => parse(bytes)).toThrow()
    // Through the client body: the client's 400.
    expect(() => new ClientBody(bytes).object()).toThrow(/not valid JSON/)
  })
})
