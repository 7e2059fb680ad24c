import type { Citation, TextPart, WebSearchPart, WebSource } from 'model-proxy'
import { signatureFromClient, signatureToClient } from 'model-proxy/kit/signatures'

type Raw = Record<string, any>

/**
 * Anthropic's hosted web search in an answer: a `server_tool_use` block (name `web_search`, `input.query`),
 * then a `web_search_tool_result` block with the results (`web_search_result`: url, title, page_age,
 * `encrypted_content`) or an error (`web_search_tool_result_error`, `error_code`); text that cites them
 * has `citations` of type `web_search_result_location` (url, title, cited_text, `encrypted_index`).
 * The encrypted values are Anthropic's and valid only there: a client of this format gets another
 * vendor's search with an envelope in those slots, and only Anthropic's own go back upstream.
 */

const str = (value: unknown) => typeof value === 'string' ? value : undefined

/** An encrypted value as the client wrote it: Anthropic's own, or (in our envelope) another vendor's marker. */
function opaqueFrom(value: unknown): { opaque?: string; origin: string } {
  const text = str(value)
  if (!text) return { origin: 'messages' }
  const slot = signatureFromClient('messages', text)
  return { origin: slot.origin, ...(slot.signature && { opaque: slot.signature }) }
}

/** The encrypted slot for a client: Anthropic's value as it came, another vendor's result marked as not Anthropic's. */
const opaqueTo = (opaque: string | undefined, origin: string | undefined) => signatureToClient('messages', { signature: opaque, origin: origin ?? 'messages' }, true)!

export const isWebSearchUse = (block: Raw) => block.type === 'server_tool_use' && block.name === 'web_search'

/** A `server_tool_use` block (its query) and its `web_search_tool_result` (undefined while it has none). */
export function webSearchFromBlocks(use: Raw | undefined, result: Raw): WebSearchPart {
  const part: WebSearchPart = { type: 'web_search', id: str(result.tool_use_id) ?? str(use?.id) ?? '', sources: [], origin: 'messages' }
  const query = str(use?.input?.query)
  if (query !== undefined) part.query = query
  const content = result.content
  if (Array.isArray(content)) {
    for (const item of content as Raw[]) {
      const url = str(item?.url)
      if (!url) continue
      const { opaque, origin } = opaqueFrom(item.encrypted_content)
      if (origin !== 'messages') part.origin = origin
      const source: WebSource = { url }
      if (str(item.title)) source.title = item.title
      if (str(item.page_age)) source.pageAge = item.page_age
      if (opaque && origin === 'messages') source.opaque = opaque
      part.sources.push(source)
    }
  } else if (content && typeof content === 'object') part.error = str(content.error_code) ?? 'unavailable'
  return part
}

/**
 * A web search as the two blocks. Upstream (a replay) only Anthropic's own search goes, with its
 * encrypted values; the API cannot take another vendor's results (content-losses reports them).
 */
export function webSearchToBlocks(part: WebSearchPart, audience: 'client' | 'upstream'): Raw[] {
  if (audience === 'upstream' && part.origin !== 'messages') return []
  const id = part.id.startsWith('srvtoolu_') || part.origin === 'messages' ? part.id : `srvtoolu_${part.id.replace(/[^A-Za-z0-9_-]/g, '')}`
  const use = { type: 'server_tool_use', id, name: 'web_search', input: part.query !== undefined ? { query: part.query } : {} }
  const content = part.error
    ? { type: 'web_search_tool_result_error', error_code: messagesErrorCode(part.error) }
    : part.sources.map(source => ({ type: 'web_search_result', url: source.url, title: source.title ?? source.url, encrypted_content: opaqueTo(source.opaque, part.origin), page_age: source.pageAge ?? null }))
  return [use, { type: 'web_search_tool_result', tool_use_id: id, content }]
}

const errorCodes = new Set(['invalid_tool_input', 'unavailable', 'max_uses_exceeded', 'too_many_requests', 'query_too_long', 'request_too_large'])
const messagesErrorCode = (code: string) => errorCodes.has(code) ? code : 'unavailable'

/** `citations` of a text block -> canonical (web search locations only; other kinds cite documents). */
export function citationsFromBlock(block: Raw): Citation[] | undefined {
  if (!Array.isArray(block.citations)) return undefined
  const citations = (block.citations as Raw[]).flatMap(citationFromMessages)
  return citations.length ? citations : undefined
}

/** One `web_search_result_location` (a `citations_delta`'s citation too); it cites its whole text block. */
export function citationFromMessages(raw: Raw): Citation[] {
  if (raw?.type !== 'web_search_result_location' || !str(raw.url)) return []
  const { opaque, origin } = opaqueFrom(raw.encrypted_index)
  const citation: Citation = { url: raw.url, origin }
  if (str(raw.title)) citation.title = raw.title
  if (str(raw.cited_text)) citation.citedText = raw.cited_text
  if (opaque && origin === 'messages') citation.opaque = opaque
  return [citation]
}

/** A citation as `web_search_result_location`; `cited_text` is the span it covers when none came with it. */
export function citationToMessages(citation: Citation, text: string): Raw {
  const cited = citation.citedText ?? (citation.start !== undefined || citation.end !== undefined ? text.slice(citation.start ?? 0, citation.end ?? text.length) : text)
  return { type: 'web_search_result_location', url: citation.url, title: citation.title ?? null, cited_text: cited, encrypted_index: opaqueTo(citation.opaque, citation.origin) }
}

/** A text part's citations as the block's `citations`: for a client all of them, upstream only Anthropic's. */
export function citationsToBlock(part: TextPart, audience: 'client' | 'upstream'): Raw[] | undefined {
  const citations = (part.citations ?? []).filter(citation => audience === 'client' || citation.origin === 'messages')
  return citations.length ? citations.map(citation => citationToMessages(citation, part.text)) : undefined
}
