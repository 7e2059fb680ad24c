import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Utf8Decoder } from './utf8-decoder.ts'

/** What TextDecoder gives for the same chunks: the reference. */
function reference(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder()
  return chunks.map(chunk => decoder.decode(chunk, { stream: true })).join('') + decoder.decode()
}

function decoded(chunks: Uint8Array[]): string {
  const decoder = new Utf8Decoder()
  return chunks.map(chunk => decoder.write(chunk)).join('') + decoder.end()
}

const bytes = (text: string) => new TextEncoder().encode(text)
const split = (all: Uint8Array, at: number[]) => [...at, all.length].reduce<{ from: number; out: Uint8Array[] }>((acc, end) => ({ from: end, out: [...acc.out, all.subarray(acc.from, end)] }), { from: 0, out: [] }).out

describe('Utf8Decoder: TextDecoder\'s text, chunk by chunk', () => {
  it.each([
    ['ASCII in one chunk', [bytes('data: hi\n\n')]],
    ['a character split across chunks', split(bytes('caf\u00e9 \u2014 \ud83d\ude00'), [4, 8, 11])],
    ['a leading BOM is dropped, a later one kept', [bytes('\ufeffdata: a\ufeff')]],
    ['a BOM split across chunks', split(bytes('\ufeffx'), [1, 2])],
    ['an empty first chunk, then a BOM', [new Uint8Array(0), bytes('\ufeffy')]],
    ['a character cut off at the end', [bytes('ok'), new Uint8Array([0xe2, 0x80])]],
  ])('%s', (_, chunks) => {
    expect(decoded(chunks)).toBe(reference(chunks))
  })

  it('agrees with TextDecoder on valid UTF-8 cut anywhere', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
      const all = bytes(text)
      const at = [...new Set(cuts.map(cut => cut % (all.length + 1)))].sort((a, b) => a - b)
      expect(decoded(split(all, at))).toBe(reference(split(all, at)))
    }))
  })

  it('agrees with TextDecoder on arbitrary bytes (U+FFFD for what is not UTF-8) cut anywhere', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 24 }), fc.array(fc.nat(), { maxLength: 4 }), (all, cuts) => {
      const at = [...new Set(cuts.map(cut => cut % (all.length + 1)))].sort((a, b) => a - b)
      expect(decoded(split(all, at))).toBe(reference(split(all, at)))
    }), { numRuns: 2000 })
  })
})
