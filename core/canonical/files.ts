import type { FilePart } from './types.ts'
import { joined, sliced } from '../json/index.ts'

/**
 * Documents travel between formats as canonical file parts. An upload id is only valid at the vendor that
 * issued it: the chat and responses formats share one (OpenAI's files), the others each have their own.
 */
const fileVendor: Record<string, string> = { chat: 'openai', responses: 'openai', messages: 'anthropic', generate: 'google' }

/** Whether `part.fileId` means something to an upstream of `format`. */
export const fileIdValidAt = (part: FilePart, format: string) => part.fileId !== undefined && part.origin !== undefined && fileVendor[part.origin] === fileVendor[format]

/**
 * A data URL cut at its first comma: the header (`data:image/png;base64`) and the payload after it, or
 * undefined when it has no comma. Each format's own header rules are matched on the header alone: no
 * pattern walks a megabyte of base64 (a regex's `(.*)$` took ~250 µs per 1.5 MB image), and the payload
 * is a slice of the client's string, noted so the writer copies the client's bytes of it
 * (core/json/derived-strings.ts). A header pattern that cannot contain a comma decides exactly what the
 * whole-URL pattern did.
 */
export function splitDataUrl(url: string): { header: string; data: string } | undefined {
  if (!url.startsWith('data:')) return undefined
  const comma = url.indexOf(',')
  return comma === -1 ? undefined : { header: url.slice(0, comma), data: sliced(url, comma + 1) }
}

/** `data:application/pdf;base64,xxx` -> {mediaType, data}; undefined when it is not a base64 data URL. */
export function parseDataUrl(url: string): { mediaType?: string; data: string } | undefined {
  const split = splitDataUrl(url)
  const match = split && /^data:([^;,]*)(?:;[^;,]*)*;base64$/.exec(split.header)
  if (!match) return undefined
  return match[1] ? { mediaType: match[1], data: split.data } : { data: split.data }
}

/** `data:<type>;base64,<data>`, noted so the writer copies the client's bytes of `data` (core/json/derived-strings.ts). */
export const dataUrl = (mediaType: string | undefined, data: string) => joined(`data:${mediaType ?? 'application/octet-stream'};base64,`, data)

/** Images are their own canonical part; any other media type a vendor sends inline is a document. */
export const isImageType = (mediaType: unknown) => typeof mediaType === 'string' && mediaType.startsWith('image/')

/** The chat format's `input_audio.format` for an audio media type: the API takes WAV and MP3 only. */
export function chatAudioFormat(mediaType: string | undefined): 'wav' | 'mp3' | undefined {
  if (mediaType === 'audio/wav' || mediaType === 'audio/x-wav' || mediaType === 'audio/wave') return 'wav'
  if (mediaType === 'audio/mpeg' || mediaType === 'audio/mp3') return 'mp3'
  return undefined
}
