import type { ImagePart, Part, TextPart } from 'model-proxy'

/** `data:image/png;base64,xxx` -> {mediaType, data}; any other URL stays a reference. */
export function imageFromUrl(url: string): ImagePart {
  const match = /^data:([^;,]+)?(?:;base64)?,(.*)$/s.exec(url)
  return match ? { type: 'image', mediaType: match[1] || 'image/png', data: match[2] } : { type: 'image', url }
}

export const imageToUrl = (image: ImagePart) => image.data !== undefined ? `data:${image.mediaType ?? 'image/png'};base64,${image.data}` : image.url ?? ''

/** Chat `content` (string, parts array, or null) -> canonical text and image parts. */
export function partsFromContent(content: unknown): Array<TextPart | ImagePart> {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : []
  if (!Array.isArray(content)) return []
  const parts: Array<TextPart | ImagePart> = []
  for (const item of content) {
    if (!item || typeof item !== 'object') continue
    const part = item as { type?: string; text?: unknown; image_url?: unknown; refusal?: unknown }
    if ((part.type === 'text' || part.type === 'input_text') && typeof part.text === 'string') parts.push({ type: 'text', text: part.text })
    else if (part.type === 'refusal' && typeof part.refusal === 'string') parts.push({ type: 'text', text: part.refusal })
    else if (part.type === 'image_url') {
      const ref = part.image_url
      const url = typeof ref === 'string' ? ref : (ref as { url?: unknown } | null)?.url
      if (typeof url === 'string') parts.push(imageFromUrl(url))
    }
  }
  return parts
}

/** Canonical parts -> chat content: a plain string when it is text only, else a parts array. */
export function contentFromParts(parts: Part[]): string | Array<Record<string, unknown>> | null {
  const visible = parts.filter(part => part.type === 'text' || part.type === 'image')
  if (!visible.length) return null
  if (visible.every(part => part.type === 'text')) return visible.map(part => (part as TextPart).text).join('')
  return visible.map(part => part.type === 'text'
    ? { type: 'text', text: part.text }
    : { type: 'image_url', image_url: { url: imageToUrl(part as ImagePart) } })
}

/** Text of a tool result: the chat format's tool role takes a string. */
export function toolResultText(content: string | Array<TextPart | ImagePart>): string {
  if (typeof content === 'string') return content
  return content.map(part => part.type === 'text' ? part.text : '[image]').join('\n')
}
