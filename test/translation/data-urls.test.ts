import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { dataUrl, parseDataUrl, splitDataUrl } from '../../core/canonical/files.ts'
import { imageFromUrl as chatImageFromUrl } from '../../providers/compat/codec/content.ts'
import { imageFromUrl as responsesImageFromUrl } from '../../providers/gamma/codec/content.ts'

// The whole-URL patterns the header-only ones replaced: each must decide the same for any URL.
const before = {
  chat: (url: string) => {
    const match = /^data:([^;,]+)?(?:;base64)?,(.*)$/s.exec(url)
    return match ? { type: 'image', mediaType: match[1] || 'image/png', data: match[2] } : { type: 'image', url }
  },
  responses: (url: string) => {
    const match = /^data:([^;,]*)((?:;[^;,]*)*);base64,(.*)$/s.exec(url)
    if (!match) return { type: 'image', url }
    return match[1] ? { type: 'image', mediaType: match[1], data: match[3] } : { type: 'image', data: match[3] }
  },
  file: (url: string) => {
    const match = /^data:([^;,]*)(?:;[^;,]*)*;base64,(.*)$/s.exec(url)
    if (!match) return undefined
    return match[1] ? { mediaType: match[1], data: match[2]! } : { data: match[2]! }
  },
}

describe('data URLs cut at their first comma', () => {
  const piece = fc.constantFrom('data:', 'image/png', ';base64', ';charset=x', ',', ';', 'AAAA', '\n', '', 'x,y')
  it('read exactly as the whole-URL patterns read them', () => {
    fc.assert(fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const url = pieces.join('')
      expect(chatImageFromUrl(url)).toEqual(before.chat(url))
      expect(responsesImageFromUrl(url)).toEqual(before.responses(url))
      expect(parseDataUrl(url)).toEqual(before.file(url))
    }), { numRuns: 3000 })
  })

  it.each([
    ['data:image/png;base64,QUJD', { header: 'data:image/png;base64', data: 'QUJD' }],
    ['data:,', { header: 'data:', data: '' }],
    ['https://example.test/a,b.png', undefined],
    ['data:image/png;base64', undefined],
  ])('%s', (url, split) => {
    expect(splitDataUrl(url)).toEqual(split)
  })

  it('joins a data URL', () => {
    expect(dataUrl('image/png', 'QUJD')).toBe('data:image/png;base64,QUJD')
    expect(dataUrl(undefined, 'QUJD')).toBe('data:application/octet-stream;base64,QUJD')
  })
})
