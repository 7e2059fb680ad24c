import type { FilePart, ImagePart, Part, TextPart } from 'model-proxy'
import { chatAudioFormat, dataUrl, fileCarried, fileIdValidAt, parseDataUrl, splitDataUrl } from 'model-proxy/kit/codec'

/** `data:image/png;base64,xxx` -> {mediaType, data}; any other URL stays a reference. */
export function imageFromUrl(url: string): ImagePart {
  const split = splitDataUrl(url)
  const match = split && /^data:([^;,]+)?(?:;base64)?$/.exec(split.header)
  return match ? { type: 'image', mediaType: match[1] || 'image/png', data: split.data } : { type: 'image', url }
}

/** An image as a chat `image_url` part, with its detail level when one was asked for. */
export const imageUrlPart = (image: ImagePart) => ({ type: 'image_url', image_url: { url: imageToUrl(image), ...(image.detail && { detail: image.detail }) } })

export const imageToUrl = (image: ImagePart) => image.data !== undefined ? dataUrl(image.mediaType ?? 'image/png', image.data) : image.url ?? ''

/** A `file` content part (`{file: {file_data, file_id, filename}}`) -> a canonical document. */
function fileFromPart(file: unknown): FilePart | undefined {
  if (!file || typeof file !== 'object') return undefined
  const { file_data: data, file_id: id, filename } = file as Record<string, unknown>
  const part: FilePart = { type: 'file' }
  const parsed = typeof data === 'string' ? parseDataUrl(data) : undefined
  if (parsed) Object.assign(part, parsed)
  if (typeof id === 'string') Object.assign(part, { fileId: id, origin: 'chat' })
  if (typeof filename === 'string') part.filename = filename
  return part.data !== undefined || part.fileId !== undefined ? part : undefined
}

/** `input_audio` (base64 and its format, wav or mp3) -> a recording by value. */
function audioFromPart(audio: unknown): FilePart | undefined {
  const { data, format } = (audio && typeof audio === 'object' ? audio : {}) as Record<string, unknown>
  if (typeof data !== 'string' || typeof format !== 'string') return undefined
  return { type: 'file', mediaType: format === 'mp3' ? 'audio/mpeg' : `audio/${format}`, data }
}

/**
 * A document as a chat `file` part, a recording as an `input_audio` part; undefined when the format
 * cannot carry it (a URL, another vendor's upload, audio other than WAV and MP3, video).
 */
export function fileToPart(part: FilePart): Record<string, unknown> | undefined {
  if (!fileCarried(part, 'chat')) return undefined
  const format = chatAudioFormat(part.mediaType)
  if (format && part.data !== undefined) return { type: 'input_audio', input_audio: { data: part.data, format } }
  const file: Record<string, unknown> = {}
  if (part.data !== undefined) file.file_data = dataUrl(part.mediaType, part.data)
  else if (fileIdValidAt(part, 'chat')) file.file_id = part.fileId
  else return undefined
  if (part.filename) file.filename = part.filename
  else if (file.file_data) file.filename = 'document'
  return { type: 'file', file }
}

type ContentPart = TextPart | ImagePart | FilePart
/** The field that holds each known part type's content. */
const partField: Record<string, string> = { text: 'text', input_text: 'text', refusal: 'refusal', image_url: 'image_url', file: 'file', input_audio: 'input_audio' }
/** The keys inside a part's own object that canonical parts carry (`detail` is checked on its own). */
const objectKeys: Record<string, ReadonlySet<string>> = {
  image_url: new Set(['url', 'detail']),
  file: new Set(['file_data', 'file_id', 'filename']),
  input_audio: new Set(['data', 'format']),
}

/**
 * Chat `content` (string, parts array, or null) -> canonical text, image, document and audio parts. A
 * part type with no canonical form (a compatible server's own) is named in `unmapped`: only the
 * same-format path, which sends the body as it came, keeps it.
 */
export function partsFromContent(content: unknown, unmapped?: Set<string>): ContentPart[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : []
  if (!Array.isArray(content)) return []
  const parts: ContentPart[] = []
  for (const item of content) {
    if (!item || typeof item !== 'object') continue
    const part = item as { type?: string; text?: unknown; image_url?: unknown; refusal?: unknown; file?: unknown; input_audio?: unknown }
    // Beside the part's own field (`cache_control`, a server's own keys): named for other formats.
    const field = partField[part.type as string]
    if (field) for (const key of Object.keys(part)) if (key !== 'type' && key !== field) unmapped?.add(`content.${key}`)
    const inner = field ? (part as Record<string, unknown>)[field] : undefined
    const innerKeys = field ? objectKeys[field] : undefined
    if (innerKeys && inner && typeof inner === 'object') for (const key of Object.keys(inner)) if (!innerKeys.has(key)) unmapped?.add(`${field}.${key}`)
    if ((part.type === 'text' || part.type === 'input_text') && typeof part.text === 'string') parts.push({ type: 'text', text: part.text })
    else if (part.type === 'refusal' && typeof part.refusal === 'string') parts.push({ type: 'text', text: part.refusal, refusal: true })
    else if (part.type === 'file') {
      const file = fileFromPart(part.file)
      if (file) parts.push(file)
    } else if (part.type === 'image_url') {
      const ref = part.image_url
      const url = typeof ref === 'string' ? ref : (ref as { url?: unknown } | null)?.url
      // `auto`, the default, asks for nothing: only another detail level is kept.
      const detail = (ref as { detail?: unknown } | null)?.detail
      if (typeof url === 'string') parts.push(typeof detail === 'string' && detail !== 'auto' ? { ...imageFromUrl(url), detail } : imageFromUrl(url))
    } else if (part.type === 'input_audio') {
      const audio = audioFromPart(part.input_audio)
      if (audio) parts.push(audio)
    } else if (part.type !== 'text' && part.type !== 'input_text' && part.type !== 'refusal') unmapped?.add(`content:${String(part.type)}`)
  }
  return parts
}

/** Canonical parts -> chat content: a plain string when it is text only, else a parts array. */
export function contentFromParts(parts: Part[]): string | Array<Record<string, unknown>> | null {
  const visible = parts.filter(part => part.type === 'text' || part.type === 'image' || part.type === 'file')
  if (!visible.length) return null
  if (visible.every(part => part.type === 'text')) return visible.map(part => (part as TextPart).text).join('')
  return visible.flatMap(part => {
    if (part.type === 'text') return [{ type: 'text', text: part.text }]
    if (part.type === 'image') return [imageUrlPart(part)]
    const file = fileToPart(part as FilePart)
    return file ? [file] : []
  })
}

/** Text of a tool result: the chat format's tool role takes text only (images follow in a user message). */
export function toolResultText(content: string | Array<TextPart | ImagePart>): string {
  if (typeof content === 'string') return content
  return content.flatMap(part => part.type === 'text' ? [part.text] : []).join('\n')
}
