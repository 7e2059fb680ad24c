import type { ImagePart, Part, TextPart } from 'model-proxy'

type Raw = Record<string, any>

export function imageFromBlock(block: Raw): ImagePart | undefined {
  const source = block.source
  if (!source || typeof source !== 'object') return undefined
  if (source.type === 'base64' && typeof source.data === 'string') return { type: 'image', mediaType: source.media_type, data: source.data }
  if (source.type === 'url' && typeof source.url === 'string') return { type: 'image', url: source.url }
  return undefined
}

export function imageToBlock(image: ImagePart): Raw {
  return image.data !== undefined
    ? { type: 'image', source: { type: 'base64', media_type: image.mediaType ?? 'image/png', data: image.data } }
    : { type: 'image', source: { type: 'url', url: image.url } }
}

/** JSON text of a tool call -> the object the format wants (`{}` when the text is not an object). */
export function parseInput(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text || '{}')
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {}
  } catch {
    return {}
  }
}

/**
 * Content blocks of one message -> canonical parts (tool results included). Blocks with no canonical
 * form (documents, server tool results...) and `cache_control` marks are named in `unmapped`.
 */
export function partsFromBlocks(content: unknown, unmapped?: Set<string>): Part[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : []
  if (!Array.isArray(content)) return []
  const parts: Part[] = []
  for (const block of content as Raw[]) {
    if (!block || typeof block !== 'object') continue
    if (block.cache_control) unmapped?.add('cache_control')
    switch (block.type) {
      case 'text': if (typeof block.text === 'string') parts.push({ type: 'text', text: block.text }); break
      case 'image': { const image = imageFromBlock(block); if (image) parts.push(image); break }
      case 'tool_use': parts.push({ type: 'tool_call', id: String(block.id ?? ''), name: String(block.name ?? ''), arguments: JSON.stringify(block.input ?? {}) }); break
      case 'tool_result': {
        const inner = typeof block.content === 'string' ? block.content : partsFromBlocks(block.content, unmapped).filter((p): p is TextPart | ImagePart => p.type === 'text' || p.type === 'image')
        parts.push({ type: 'tool_result', callId: String(block.tool_use_id ?? ''), content: inner ?? '', ...(block.is_error === true && { isError: true }) })
        break
      }
      case 'thinking': parts.push({ type: 'thinking', text: String(block.thinking ?? ''), origin: 'messages', ...(typeof block.signature === 'string' && { signature: block.signature }) }); break
      case 'redacted_thinking': parts.push({ type: 'thinking', text: String(block.data ?? ''), redacted: true, signature: String(block.data ?? ''), origin: 'messages' }); break
      default: unmapped?.add(`block:${String(block.type)}`)
    }
  }
  return parts
}

/** Canonical parts -> content blocks. Unsigned thinking is dropped: the API rejects it. */
export function blocksFromParts(parts: Part[]): Raw[] {
  const blocks: Raw[] = []
  for (const part of parts) {
    switch (part.type) {
      case 'text': if (part.text) blocks.push({ type: 'text', text: part.text }); break
      case 'image': blocks.push(imageToBlock(part)); break
      case 'tool_call': blocks.push({ type: 'tool_use', id: part.id, name: part.name, input: parseInput(part.arguments) }); break
      case 'tool_result': blocks.push({
        type: 'tool_result', tool_use_id: part.callId,
        content: typeof part.content === 'string' ? part.content : part.content.map(p => p.type === 'text' ? { type: 'text', text: p.text } : imageToBlock(p)),
        ...(part.isError && { is_error: true }),
      }); break
      case 'thinking':
        // Only signatures this format made are valid here (a responses `encrypted_content` is not).
        if (!part.signature || part.origin !== 'messages') break
        if (part.redacted) blocks.push({ type: 'redacted_thinking', data: part.signature })
        else blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature })
        break
    }
  }
  return blocks
}
