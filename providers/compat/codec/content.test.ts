import { describe, expect, it } from 'vitest'
import { contentFromParts, partsFromContent } from './content.ts'

// Chat's `input_audio` part: `{data: <base64>, format: 'wav' | 'mp3'}` (ChatCompletionContentPartInputAudio).
describe('chat content parts', () => {
  it.each([
    ['wav', { type: 'file', mediaType: 'audio/wav', data: 'UklGRg==' }],
    ['mp3', { type: 'file', mediaType: 'audio/mpeg', data: 'SUQz' }],
  ])('input_audio (%s) is a recording by value, and goes back as input_audio', (format, part) => {
    const wire = [{ type: 'text', text: 'what is this?' }, { type: 'input_audio', input_audio: { data: part.data, format } }]
    const parts = partsFromContent(wire)
    expect(parts).toEqual([{ type: 'text', text: 'what is this?' }, part])
    expect(contentFromParts(parts)).toEqual(wire)
  })

  it('audio chat cannot take (OGG) and video are left out', () => {
    expect(contentFromParts([{ type: 'text', text: 'x' }, { type: 'file', mediaType: 'audio/ogg', data: 'T2dn' }, { type: 'file', mediaType: 'video/mp4', data: 'AAAA' }])).toEqual([{ type: 'text', text: 'x' }])
  })

  it('a part type with no canonical form is named, not dropped unseen', () => {
    const unmapped = new Set<string>()
    expect(partsFromContent([{ type: 'text', text: 'x' }, { type: 'video_url', video_url: { url: 'https://v.test/a.mp4' } }], unmapped)).toEqual([{ type: 'text', text: 'x' }])
    expect([...unmapped]).toEqual(['content:video_url'])
  })
})
