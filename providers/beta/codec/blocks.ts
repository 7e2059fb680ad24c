import type { ImagePart, Part, TextPart, ThinkingPart } from 'model-proxy'
import { signatureFromClient, signatureToClient, signatureToUpstream } from 'model-proxy/kit/signatures'
import { fileFromDocument, fileToDocument } from './documents.ts'
import { citationsFromBlock, citationsToBlock, isWebSearchUse, webSearchFromBlocks, webSearchToBlocks } from './web-search-blocks.ts'

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
 * What each block type carries canonically (`cache_control` is named on its own). Any other key of a
 * known block (a newer API's field) is named `<type>.<key>` for other formats.
 */
const blockKeys: Record<string, ReadonlySet<string>> = {
  text: new Set(['type', 'text', 'citations', 'cache_control']),
  image: new Set(['type', 'source', 'cache_control']),
  document: new Set(['type', 'source', 'title', 'cache_control']),
  tool_use: new Set(['type', 'id', 'name', 'input', 'cache_control']),
  tool_result: new Set(['type', 'tool_use_id', 'content', 'is_error', 'cache_control']),
  thinking: new Set(['type', 'thinking', 'signature']),
  redacted_thinking: new Set(['type', 'data']),
}

/** Keys of an image or document source, of any source type, that canonical parts carry. */
const sourceKeys = new Set(['type', 'media_type', 'data', 'url', 'file_id', 'content'])

/**
 * Content blocks of one message -> canonical parts (tool results included). Blocks with no canonical
 * form (documents, server tool results...) and `cache_control` marks are named in `unmapped`.
 */
export function partsFromBlocks(content: unknown, unmapped?: Set<string>): Part[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : []
  if (!Array.isArray(content)) return []
  const parts: Part[] = []
  // A web search's query block waits for its result block (they come as a pair).
  const searches = new Map<string, Raw>()
  for (const block of content as Raw[]) {
    if (!block || typeof block !== 'object') continue
    if (block.cache_control) unmapped?.add('cache_control')
    const keys = blockKeys[block.type as string]
    if (keys && unmapped) for (const key of Object.keys(block)) if (!keys.has(key)) unmapped.add(`${block.type}.${key}`)
    if (keys?.has('source') && unmapped && block.source && typeof block.source === 'object') for (const key of Object.keys(block.source)) if (!sourceKeys.has(key)) unmapped.add(`${block.type}.source.${key}`)
    switch (block.type) {
      case 'text': {
        if (typeof block.text !== 'string') break
        const citations = citationsFromBlock(block)
        parts.push(citations ? { type: 'text', text: block.text, citations } : { type: 'text', text: block.text })
        break
      }
      case 'server_tool_use':
        if (isWebSearchUse(block)) searches.set(String(block.id ?? ''), block)
        else unmapped?.add('block:server_tool_use')
        break
      case 'web_search_tool_result': parts.push(webSearchFromBlocks(searches.get(String(block.tool_use_id ?? '')), block)); break
      case 'image': {
        const image = imageFromBlock(block)
        // An upload (`source.type: 'file'`) is valid at this vendor only.
        if (image) parts.push(image)
        else unmapped?.add('block:image')
        break
      }
      case 'document': {
        const file = fileFromDocument(block)
        if (file) parts.push(file)
        else unmapped?.add('block:document')
        break
      }
      case 'tool_use': parts.push({ type: 'tool_call', id: String(block.id ?? ''), name: String(block.name ?? ''), arguments: JSON.stringify(block.input ?? {}) }); break
      case 'tool_result': {
        const inner = typeof block.content === 'string' ? block.content : toolResultContent(partsFromBlocks(block.content, unmapped), unmapped)
        parts.push({ type: 'tool_result', callId: String(block.tool_use_id ?? ''), content: inner ?? '', ...(block.is_error === true && { isError: true }) })
        break
      }
      case 'thinking': parts.push(thinkingFromBlock(String(block.thinking ?? ''), block.signature)); break
      // Redacted thinking is opaque: its data is a signature, never text to show.
      case 'redacted_thinking': parts.push({ ...thinkingFromBlock('', block.data), redacted: true }); break
      default: unmapped?.add(`block:${String(block.type)}`)
    }
  }
  return parts
}

/** What a tool result holds canonically (text and images); a document in it has no place there: named. */
function toolResultContent(parts: Part[], unmapped?: Set<string>): Array<TextPart | ImagePart> {
  if (parts.some(part => part.type !== 'text' && part.type !== 'image')) unmapped?.add('tool_result.document')
  return parts.filter((p): p is TextPart | ImagePart => p.type === 'text' || p.type === 'image')
}

/** A thinking block's signature, unwrapped: another vendor's (in our envelope) keeps its origin. */
function thinkingFromBlock(text: string, value: unknown): ThinkingPart {
  if (typeof value !== 'string' || !value) return { type: 'thinking', text, origin: 'messages' }
  const slot = signatureFromClient('messages', value)
  return { type: 'thinking', text, ...(slot.origin && { origin: slot.origin }), ...(slot.signature && { signature: slot.signature }), ...(slot.redacted && { redacted: true }) }
}

/**
 * Thinking as a block: `upstream` keeps Anthropic's own signatures only (the API rejects unsigned or
 * foreign ones); a client gets every thinking part, another vendor's signature in an envelope.
 */
function thinkingBlock(part: ThinkingPart, audience: 'client' | 'upstream'): Raw | undefined {
  if (audience === 'client' && !part.signature && !part.text) return undefined
  const signature = audience === 'upstream' ? signatureToUpstream('messages', part) : signatureToClient('messages', part, true)
  if (!signature) return undefined
  if (part.redacted && part.origin === 'messages') return { type: 'redacted_thinking', data: signature }
  return { type: 'thinking', thinking: part.redacted ? '' : part.text, signature }
}

/** Canonical parts -> content blocks, for the upstream (a request) or for a client (an answer). */
export function blocksFromParts(parts: Part[], audience: 'client' | 'upstream'): Raw[] {
  const blocks: Raw[] = []
  for (const part of parts) {
    switch (part.type) {
      case 'text': {
        if (!part.text) break
        const citations = citationsToBlock(part, audience)
        blocks.push(citations ? { type: 'text', text: part.text, citations } : { type: 'text', text: part.text })
        break
      }
      case 'web_search': blocks.push(...webSearchToBlocks(part, audience)); break
      // An answer has no image or document blocks (a stream has none either): a generated image stays out.
      case 'image': if (audience === 'upstream') blocks.push(imageToBlock(part)); break
      case 'file': { const document = audience === 'upstream' ? fileToDocument(part) : undefined; if (document) blocks.push(document); break }
      case 'tool_call': blocks.push({ type: 'tool_use', id: part.id, name: part.name, input: parseInput(part.arguments) }); break
      case 'tool_result': blocks.push({
        type: 'tool_result', tool_use_id: part.callId,
        content: typeof part.content === 'string' ? part.content : part.content.map(p => p.type === 'text' ? { type: 'text', text: p.text } : imageToBlock(p)),
        ...(part.isError && { is_error: true }),
      }); break
      case 'thinking': {
        const block = thinkingBlock(part, audience)
        if (block) blocks.push(block)
        break
      }
    }
  }
  return blocks
}
