import type { FilePart } from './types.ts'

/**
 * Documents travel between formats as canonical file parts. An upload id is only valid at the vendor that
 * issued it: the chat and responses formats share one (OpenAI's files), the others each have their own.
 */
const fileVendor: Record<string, string> = { chat: 'openai', responses: 'openai', messages: 'anthropic', generate: 'google' }

/** Whether `part.fileId` means something to an upstream of `format`. */
export const fileIdValidAt = (part: FilePart, format: string) => part.fileId !== undefined && part.origin !== undefined && fileVendor[part.origin] === fileVendor[format]

/** `data:application/pdf;base64,xxx` -> {mediaType, data}; undefined when it is not a base64 data URL. */
export function parseDataUrl(url: string): { mediaType?: string; data: string } | undefined {
  const match = /^data:([^;,]*)(?:;[^;,]*)*;base64,(.*)$/s.exec(url)
  if (!match) return undefined
  return match[1] ? { mediaType: match[1], data: match[2]! } : { data: match[2]! }
}

export const dataUrl = (mediaType: string | undefined, data: string) => `data:${mediaType ?? 'application/octet-stream'};base64,${data}`

/** Images are their own canonical part; any other media type a vendor sends inline is a document. */
export const isImageType = (mediaType: unknown) => typeof mediaType === 'string' && mediaType.startsWith('image/')
