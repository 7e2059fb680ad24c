import fc from 'fast-check'
import { isUtf8 } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { ClientBody, parseJsonObject } from './index.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { chatShape } from '../../providers/compat/validate-chat.ts'
import { flawed } from '../../test/fuzz/bad-bytes.ts'

/**
 * The byte-level body reader against the plain one (isUtf8 + JSON.parse) on bodies with bad bytes in
 * keys and values: each either refuses with the client's 400 exactly when the plain path does, or reads
 * the same object; nothing else is ever thrown. Large bodies go through the scanner's by-parts parse.
 */

const base = [
  { model: 'm', stream: false, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'text', text: 'x' }] }], tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }], temperature: 0.5 },
  { model: 'm', max_tokens: 10, system: [{ type: 'text', text: 's' }], messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'r' }] }] },
  { contents: [{ role: 'user', parts: [{ text: 'hi' }, { functionResponse: { name: 'f', response: { ok: true } } }] }], generationConfig: { temperature: 1 } },
  { model: 'm', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }], previous_response_id: 'resp_1' },
]
/** Long strings and a long list: the scanner notes raw strings and parses by parts. */
const large = base.map(body => ({ ...body, pad: Array.from({ length: 40 }, (_, i) => ({ role: 'user', content: `${'long text '.repeat(100)}${i}` })) }))

/** What the plain path makes of the bytes: the object, or 'refused'. */
function plain(bytes: Buffer): unknown {
  if (!isUtf8(bytes)) return 'refused'
  try {
    const value = JSON.parse(bytes.toString('utf8'))
    return value && typeof value === 'object' && !Array.isArray(value) ? value : 'refused'
  } catch {
    return 'refused'
  }
}

function read(bytes: Buffer, scope: string): unknown {
  try {
    const body = new ClientBody(bytes, scope)
    // Every reader the routes use, before and after the whole parse.
    body.field('model')
    body.skeleton(chatShape)
    return body.object()
  } catch (error) {
    expect(error).toBeInstanceOf(ProxyError)
    expect((error as ProxyError).status).toBe(400)
    return 'refused'
  }
}

/** Whether reading the bytes alone refuses them: a same-format body nobody parses goes upstream as it came. */
function refusedOnRead(bytes: Buffer, scope: string): boolean {
  try {
    new ClientBody(bytes, scope)
    return false
  } catch (error) {
    expect(error).toBeInstanceOf(ProxyError)
    expect((error as ProxyError).status).toBe(400)
    return true
  }
}

describe('byte-level body reader on flawed bodies', () => {
  it('refuses on reading, before anything parses it, exactly what the plain path refuses (small and large, parts cached per client)', () => {
    fc.assert(fc.property(flawed([...base, ...large]), fc.constantFrom('', 'client-b'), ({ bytes }, scope) => {
      expect(refusedOnRead(bytes, scope)).toBe(plain(bytes) === 'refused')
    }), { numRuns: 1500 })
  })

  it('a next turn whose new part is malformed is refused though its earlier parts were seen', () => {
    const turn = (last: string) => Buffer.from(JSON.stringify(large[0]).replace(/}$/, `,"messages2":[${JSON.stringify({ role: 'user', content: 'x'.repeat(300) })},${last}]}`))
    expect(refusedOnRead(turn('{"role":"user","content":"fine"}'), 'client-c')).toBe(false)
    for (const flaw of ['{"role":"user","content":"a",}', '{"role":"user","content":"\\x"}', '{"role":"user","n":01}', '[1,,2]']) {
      expect(refusedOnRead(turn(flaw), 'client-c')).toBe(true)
    }
  })

  it('a key written twice in a large body: its first value is checked too (the scan keeps only the last)', () => {
    const history = JSON.stringify(large[0].pad)
    for (const [first, ok] of [['"m\\x"', false], ['[1,,2]', false], ['{"a":01}', false], ['"m0"', true]] as const) {
      // At the top level, and inside a nested object over 32 KB (parsed by parts).
      const top = Buffer.from(`{"model":${first},"messages":${history},"model":"m"}`)
      const nested = Buffer.from(`{"model":"m","meta":{"k":${first},"history":${history},"k":1}}`)
      for (const bytes of [top, nested]) {
        expect(bytes.length).toBeGreaterThan(32_768)
        expect(read(bytes, 'client-d')).toEqual(ok ? JSON.parse(bytes.toString()) : 'refused')
      }
    }
  })

  it('refuses exactly what the plain path refuses (400), and reads the rest the same', () => {
    fc.assert(fc.property(flawed(base), ({ bytes }) => {
      expect(read(bytes, '')).toEqual(plain(bytes))
    }), { numRuns: 1500 })
  })

  it('large bodies (scanned, parsed by parts, remembered per client) too', () => {
    fc.assert(fc.property(flawed(large), fc.constantFrom('', 'client-a'), ({ bytes }, scope) => {
      expect(read(bytes, scope)).toEqual(plain(bytes))
    }), { numRuns: 300 })
  })

  it('invalid UTF-8 anywhere, keys included, is the client\'s 400 naming it', () => {
    for (const bytes of [Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), Buffer.concat([Buffer.from('{"model":"m","x":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')])]) {
      expect(() => new ClientBody(bytes)).toThrow(/not valid UTF-8/)
      expect(() => parseJsonObject(bytes)).toThrow(/not valid UTF-8/)
    }
  })
})
