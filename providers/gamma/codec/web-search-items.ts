import type { Citation, TextPart, WebSearchPart } from 'model-proxy'
import { isObject, num, str, type Json } from './guards.ts'

/**
 * The Responses API's hosted web search in an answer: a `web_search_call` output item (`action`:
 * `{type: 'search', query, sources: [{type: 'url', url}]}`, `status` completed or failed), and text that
 * cites pages through `url_citation` annotations on `output_text` (url, title, start_index, end_index:
 * character offsets into that text). Nothing in it is encrypted.
 */

/** A `web_search_call` item -> canonical (a failed search keeps `failed` as its error). */
export function webSearchFromItem(item: Json): WebSearchPart {
  const part: WebSearchPart = { type: 'web_search', id: str(item.id) ?? '', sources: [], origin: 'responses' }
  const action = isObject(item.action) ? item.action : {}
  const query = str(action.query) ?? (Array.isArray(action.queries) ? str(action.queries[0]) : undefined)
  if (query !== undefined) part.query = query
  if (Array.isArray(action.sources)) for (const source of action.sources) if (isObject(source) && str(source.url)) part.sources.push({ url: source.url as string, ...(str(source.title) && { title: source.title as string }) })
  if (item.status === 'failed') part.error = 'failed'
  return part
}

/** Canonical -> a `web_search_call` item; the id keeps the format's `ws_` prefix. */
export function webSearchToItem(part: WebSearchPart, status: 'in_progress' | 'completed' | 'incomplete'): Json {
  const id = part.id.startsWith('ws_') ? part.id : `ws_${part.id.replace(/[^A-Za-z0-9_-]/g, '')}`
  const action: Json = { type: 'search', ...(part.query !== undefined && { query: part.query }) }
  if (part.sources.length) action.sources = part.sources.map(source => ({ type: 'url', url: source.url }))
  return { id, type: 'web_search_call', status: part.error ? 'failed' : status === 'incomplete' ? 'completed' : status, action }
}

/** `url_citation` annotations of one `output_text` -> canonical citations (file citations have no web form). */
export function citationsFromAnnotations(annotations: unknown): Citation[] | undefined {
  if (!Array.isArray(annotations)) return undefined
  const citations = annotations.flatMap(citationFromAnnotation)
  return citations.length ? citations : undefined
}

export function citationFromAnnotation(annotation: unknown): Citation[] {
  if (!isObject(annotation) || annotation.type !== 'url_citation' || !str(annotation.url)) return []
  const citation: Citation = { url: annotation.url as string, origin: 'responses' }
  if (str(annotation.title)) citation.title = annotation.title as string
  const start = num(annotation.start_index)
  const end = num(annotation.end_index)
  if (start !== undefined) citation.start = start
  if (end !== undefined) citation.end = end
  return [citation]
}

/** A citation as `url_citation` over `text`; one without offsets (Anthropic cites whole blocks) spans it all. */
export function annotationOf(citation: Citation, text: string): Json {
  return { type: 'url_citation', start_index: citation.start ?? 0, end_index: citation.end ?? text.length, url: citation.url, title: citation.title ?? citation.url }
}

export const annotationsOf = (part: TextPart): Json[] => (part.citations ?? []).map(citation => annotationOf(citation, part.text))
