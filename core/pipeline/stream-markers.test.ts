import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { emptyChoices, emptyChoicesAt, escapedLetter } from './stream-markers.ts'

describe('emptyChoicesAt', () => {
  it.each([
    ['`"choices":[]`', 'data: {"choices":[],"usage":{}}\n\n', true],
    ['spaces and a tab', 'data: {"choices" :\t[ ],"usage":{}}\n\n', true],
    ['the list on the next data line', 'data: {"choices":\ndata: [\ndata: ]}\n\n', true],
    ['an escaped key', 'data: {"\\u0063hoices":[]}\n\n', true],
    ['another key\'s empty list', 'data: {"choices":[{"delta":{"tool_calls":[]}}]}\n\n', false],
    ['an empty list in a string', 'data: {"choices":[{"delta":{"content":"x []"}}]}\n\n', false],
  ])('%s', (_name, text, found) => {
    expect(emptyChoicesAt(Buffer.from(text), 1) !== -1).toBe(found)
  })

  it('never misses an event the pattern it stands before would take (the empty list of `choices`)', () => {
    const key = fc.constantFrom('choices', 'tool_calls', 'logprobs', 'annotations', 'choice')
    const gap = fc.constantFrom('', ' ', '\t', '\ndata: ', '\ndata:')
    fc.assert(fc.property(fc.array(fc.tuple(key, gap, gap, gap), { minLength: 1, maxLength: 6 }), (lists) => {
      const text = `data: {${lists.map(([k, a, b, c], i) => `"${k}"${a}:${b}[${c}]${i < lists.length - 1 ? ',' : ''}`).join('')}}\n\n`
      expect(emptyChoicesAt(Buffer.from(text), 1) !== -1).toBe(emptyChoices(text))
    }))
  })
})

describe('escapedLetter', () => {
  it.each([
    ['`\\u0075`', '{"\\u0075sage":{}}', true],
    ['upper-case hex', '{"\\u004Fk":1}', true],
    ['a non-ASCII escape (Python)', '{"text":"caf\\u00e9"}', false],
    ['Go\'s HTML escapes', '{"text":"\\u003cb\\u003e \\u0026"}', false],
    ['no escape', '{"usage":{}}', false],
  ])('%s', (_name, text, found) => {
    expect(escapedLetter(text)).toBe(found)
  })
})
