import type { FilePart, ImagePart, Part, TextPart } from 'model-proxy'
import { dataUrl, fileIdValidAt, parseDataUrl, splitDataUrl } from 'model-proxy/kit/codec'

/** `data:image/png;base64,xxx` -> {mediaType, data}; any other URL stays a reference. */
export function imageFromUrl(url: string): ImagePart {
  const split = splitDataUrl(url)
  const match = split && /^data:([^;,]+)?(?:;base64)?$/.exec(split.header)
  return match ? { type: 'image', mediaType: match[1] || 'image/png', data: split.data } : { type: 'image', url }
}

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

/** A document as a chat `file` part; undefined when the format cannot carry it (a URL, another vendor's upload). */
export function fileToPart(part: FilePart): Record<string, unknown> | undefined {
  const file: Record<string, unknown> = {}
  if (part.data !== undefined) file.file_data = dataUrl(part.mediaType, part.data)
  else if (fileIdValidAt(part, 'chat')) file.file_id = part.fileId
  else return undefined
  if (part.filename) file.filename = part.filename
  else if (file.file_data) file.filename = 'document'
  return { type: 'file', file }
}

type ContentPart = TextPart | ImagePart | FilePart

/** Chat `content` (string, parts array, or null) -> canonical text, image and document parts. */
export function partsFromContent(content: unknown): ContentPart[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : []
  if (!Array.isArray(content)) return []
  const parts: ContentPart[] = []
  for (const item of content) {
    if (!item || typeof item !== 'object') continue
    const part = item as { type?: string; text?: unknown; image_url?: unknown; refusal?: unknown; file?: unknown }
    if ((part.type === 'text' || part.type === 'input_text') && typeof part.text === 'string') parts.push({ type: 'text', text: part.text })
    else if (part.type === 'refusal' && typeof part.refusal === 'string') parts.push({ type: 'text', text: part.refusal, refusal: true })
    else if (part.type === 'file') {
      const file = fileFromPart(part.file)
      if (file) parts.push(file)
    } else if (part.type === 'image_url') {
      const ref = part.image_url
      const url = typeof ref === 'string' ? ref : (ref as { url?: unknown } | null)?.url
      if (typeof url === 'string') parts.push(imageFromUrl(url))
    }
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
    if (part.type === 'image') return [{ type: 'image_url', image_url: { url: imageToUrl(part) } }]
    const file = fileToPart(part as FilePart)
    return file ? [file] : []
  })
}

/** Text of a tool result: the chat format's tool role takes text only (images follow in a user message). */
export function toolResultText(content: string | Array<TextPart | ImagePart>): string {
  if (typeof content === 'string') return content
  return content.flatMap(part => part.type === 'text' ? [part.text] : []).join('\n')
}
