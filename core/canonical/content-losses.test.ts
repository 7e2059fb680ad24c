import { describe, expect, it } from 'vitest'
import type { WireFormat } from './codec.ts'
import type { FilePart } from './types.ts'
import { contentLosses, fileCarried } from './content-losses.ts'

const wav: FilePart = { type: 'file', mediaType: 'audio/wav', data: 'UklGRg==' }
const mp3: FilePart = { type: 'file', mediaType: 'audio/mpeg', data: 'SUQz' }
const ogg: FilePart = { type: 'file', mediaType: 'audio/ogg', data: 'T2dn' }
const video: FilePart = { type: 'file', mediaType: 'video/mp4', url: 'https://www.youtube.com/watch?v=x' }
const pdfUrl: FilePart = { type: 'file', mediaType: 'application/pdf', url: 'https://x.test/a.pdf' }
const untypedUrl: FilePart = { type: 'file', url: 'https://x.test/a' }
const pdf: FilePart = { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=' }

// What each API takes: chat `input_audio` (wav, mp3) and `file` (documents, inline or an upload);
// responses `input_file` (documents); messages `document` (PDF inline or by URL, plain text);
// generateContent `inlineData`/`fileData` (any media type).
describe('fileCarried', () => {
  it.each<[string, FilePart, WireFormat, boolean]>([
    ['WAV to chat (input_audio)', wav, 'chat', true],
    ['MP3 to chat (input_audio)', mp3, 'chat', true],
    ['OGG to chat: input_audio has wav and mp3 only', ogg, 'chat', false],
    ['audio to responses: input_file holds documents', wav, 'responses', false],
    ['audio to messages', wav, 'messages', false],
    ['audio to generateContent', ogg, 'generate', true],
    ['a video URL to messages: a document URL is a PDF', video, 'messages', false],
    ['a video URL to responses', video, 'responses', false],
    ['a video URL to chat', video, 'chat', false],
    ['a video URL to generateContent (fileData)', video, 'generate', true],
    ['a PDF URL to messages', pdfUrl, 'messages', true],
    ['a URL of no known type to messages (responses file_url)', untypedUrl, 'messages', true],
    ['an inline PDF to chat', pdf, 'chat', true],
    ['an inline PDF to responses', pdf, 'responses', true],
  ])('%s', (_name, part, upstream, carried) => {
    expect(fileCarried(part, upstream)).toBe(carried)
  })

  it('audio a target cannot take is an audio loss, other media a file loss', () => {
    expect(contentLosses([{ role: 'user', parts: [wav, video] }], 'messages')).toEqual(['audio', 'file'])
    expect(contentLosses([{ role: 'user', parts: [wav, mp3] }], 'chat')).toEqual([])
  })
})
