import type { FilePart } from 'model-proxy'
import { fileCarried } from 'model-proxy/kit/codec'

type Raw = Record<string, any>


/** A `document` block -> a canonical document; plain-text sources become base64 like every other file. */
export function fileFromDocument(block: Raw): FilePart | undefined {
  const source = block.source
  if (!source || typeof source !== 'object') return undefined
  const part: FilePart = { type: 'file' }
  if (typeof block.title === 'string') part.filename = block.title
  if (source.type === 'base64' && typeof source.data === 'string') Object.assign(part, { mediaType: source.media_type ?? 'application/pdf', data: source.data })
  else if (source.type === 'text' && typeof source.data === 'string') Object.assign(part, { mediaType: source.media_type ?? 'text/plain', data: Buffer.from(source.data, 'utf8').toString('base64') })
  else if (source.type === 'url' && typeof source.url === 'string') Object.assign(part, { mediaType: 'application/pdf', url: source.url })
  else if (source.type === 'file' && typeof source.file_id === 'string') Object.assign(part, { fileId: source.file_id, origin: 'messages' })
  else return undefined
  return part
}

/** A canonical document -> a `document` block, or undefined when the format has no place for it. */
export function fileToDocument(part: FilePart): Raw | undefined {
  // PDFs by value or URL, any text as plain text, this vendor's uploads.
  if (!fileCarried(part, 'messages')) return undefined
  let source: Raw
  if (part.data !== undefined && part.mediaType?.startsWith('text/')) source = { type: 'text', media_type: 'text/plain', data: Buffer.from(part.data, 'base64').toString('utf8') }
  else if (part.data !== undefined) source = { type: 'base64', media_type: 'application/pdf', data: part.data }
  else if (part.url !== undefined) source = { type: 'url', url: part.url }
  else source = { type: 'file', file_id: part.fileId }
  return { type: 'document', source, ...(part.filename && { title: part.filename }) }
}
