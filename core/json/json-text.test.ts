import { describe, expect, it } from 'vitest'
import { jsonTextOf } from './json-text.ts'

/** Seeded JSON text: mostly ASCII strings with some characters from every UTF-8 length. */
function randomJson(seed: number, entries: number, highShare: number): string {
  let state = seed
  const next = () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff
  const chars = ['é', '—', '…', '漢', '😀', '\u00a0', '\ufffd', '"', '\\', '\n', 'a', 'b', ' ', '{']
  const value = () => Array.from({ length: 20 + Math.floor(next() * 200) }, () => next() < highShare ? chars[Math.floor(next() * 9)]! : chars[9 + Math.floor(next() * 5)]!).join('')
  return JSON.stringify(Object.fromEntries(Array.from({ length: entries }, (_, i) => [`k${i}${next() < highShare ? 'ü' : ''}`, value()])))
}

describe('jsonTextOf: JSON.parse gives the same value as from the plain UTF-8 text', () => {
  it.each([
    ['small body', '{"model":"m","messages":[{"role":"user","content":"héllo — “quoted”"}]}'],
    ['large ASCII body', JSON.stringify({ model: 'm', text: 'x'.repeat(100_000) })],
    ['large body with a few characters', JSON.stringify({ model: 'm', system: `${'a'.repeat(40_000)}—${'b'.repeat(40_000)}é…😀` })],
    ['keys with characters', JSON.stringify({ model: 'm', 'clé': 'valeur', pad: 'p'.repeat(8000) })],
  ])('%s', (_name, text) => {
    expect(JSON.parse(jsonTextOf(Buffer.from(text)))).toEqual(JSON.parse(text))
  })

  it('random bodies at every alignment', () => {
    for (let seed = 1; seed <= 120; seed++) {
      const text = randomJson(seed, 30 + seed, seed % 4 === 0 ? 0.3 : 0.01)
      const offset = seed % 5
      const bytes = Buffer.concat([Buffer.alloc(offset), Buffer.from(text)]).subarray(offset)
      expect(JSON.parse(jsonTextOf(bytes))).toEqual(JSON.parse(text))
    }
  })

  it('keeps a mostly-ASCII large body one byte per character (no large two-byte string)', () => {
    const text = jsonTextOf(Buffer.from(JSON.stringify({ system: `${'a'.repeat(70_000)}—` })))
    expect([...text].every(char => char.charCodeAt(0) < 0x80)).toBe(true)
  })

  it('invalid JSON stays invalid: a raw character after a backslash, broken bytes outside strings', () => {
    const pad = 'p'.repeat(5000)
    expect(() => JSON.parse(jsonTextOf(Buffer.from(`{"a":"${pad}\\é"}`)))).toThrow()
    expect(() => JSON.parse(jsonTextOf(Buffer.concat([Buffer.from(`{"a":"${pad}"}`), Buffer.from([0xe2, 0x80])])))).toThrow()
    // Broken bytes inside a string decode to U+FFFD, as plain decoding does.
    const broken = Buffer.concat([Buffer.from(`{"a":"${pad}`), Buffer.from([0xe2, 0x80]), Buffer.from('"}')])
    expect(JSON.parse(jsonTextOf(broken))).toEqual(JSON.parse(broken.toString('utf8')))
  })
})
