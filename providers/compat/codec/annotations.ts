import type { Citation, TextPart } from 'model-proxy'

type Raw = Record<string, any>

/**
 * The chat format's web citations: a search model's answer carries `annotations` of type `url_citation`
 * (`url_citation: {url, title, start_index, end_index}`, character offsets into the message's content)
 * on its message, and in a stream on a delta of their own after the text.
 */
export function citationsFromChat(annotations: unknown): Citation[] {
  if (!Array.isArray(annotations)) return []
  return annotations.flatMap((annotation: Raw): Citation[] => {
    const cited = annotation?.type === 'url_citation' ? annotation.url_citation : undefined
    if (!cited || typeof cited.url !== 'string') return []
    const citation: Citation = { url: cited.url, origin: 'chat' }
    if (typeof cited.title === 'string') citation.title = cited.title
    if (Number.isInteger(cited.start_index)) citation.start = cited.start_index
    if (Number.isInteger(cited.end_index)) citation.end = cited.end_index
    return [citation]
  })
}

/** One citation of text that starts at `offset` in the content and is `length` long (no offsets: all of it). */
export function annotationToChat(citation: Citation, offset: number, length: number): Raw {
  const start = offset + (citation.start ?? 0)
  const end = offset + (citation.end ?? length)
  return { type: 'url_citation', url_citation: { start_index: start, end_index: end, url: citation.url, title: citation.title ?? citation.url } }
}

/** The annotations of a content made of `texts` joined as they are (offsets count from the content's start). */
export function annotationsToChat(texts: TextPart[]): Raw[] {
  const annotations: Raw[] = []
  let offset = 0
  for (const part of texts) {
    for (const citation of part.citations ?? []) annotations.push(annotationToChat(citation, offset, part.text.length))
    offset += part.text.length
  }
  return annotations
}
