import type { Citation, Part, TextPart, WebSearchPart } from 'model-proxy'

type Raw = Record<string, any>

/**
 * Gemini's Google Search grounding (`candidate.groundingMetadata`): `webSearchQueries`, the pages found
 * (`groundingChunks[].web`: uri, title), and which span of the answer each page backs
 * (`groundingSupports[]`: `segment` {startIndex, endIndex in UTF-8 bytes, text}, `groundingChunkIndices`).
 * Canonically: web search parts (one per query, the pages on the first) and citations on the text parts.
 */

const str = (value: unknown) => typeof value === 'string' ? value : undefined

/** UTF-8 byte offset -> string (UTF-16) offset in `text`. */
const charsAt = (text: string, bytes: number) => Buffer.from(text, 'utf8').subarray(0, bytes).toString('utf8').length
const bytesAt = (text: string, chars: number) => Buffer.byteLength(text.slice(0, chars), 'utf8')

export interface Grounding { searches: WebSearchPart[]; citations: Array<{ start: number; end: number; citation: Citation }> }

/**
 * A candidate's grounding -> searches, and citations as character ranges of `text` (the candidate's text
 * so far, all parts joined). A segment whose offsets do not match its text is found by its text.
 */
export function groundingFrom(metadata: unknown, text: string, id: string): Grounding {
  const grounding: Grounding = { searches: [], citations: [] }
  if (!metadata || typeof metadata !== 'object') return grounding
  const raw = metadata as Raw
  const pages = (Array.isArray(raw.groundingChunks) ? raw.groundingChunks as Raw[] : []).map(chunk => ({ url: str(chunk?.web?.uri), title: str(chunk?.web?.title) }))
  const queries = (Array.isArray(raw.webSearchQueries) ? raw.webSearchQueries as unknown[] : []).filter((q): q is string => typeof q === 'string')
  const sources = pages.flatMap(page => page.url ? [{ url: page.url, ...(page.title && { title: page.title }) }] : [])
  if (queries.length || sources.length) {
    grounding.searches = (queries.length ? queries : [undefined]).map((query, i) => ({ type: 'web_search', id: `${id}_${i}`, ...(query !== undefined && { query }), sources: i === 0 ? sources : [], origin: 'generate' }))
  }
  for (const support of Array.isArray(raw.groundingSupports) ? raw.groundingSupports as Raw[] : []) {
    const segment = support?.segment ?? {}
    let start = charsAt(text, typeof segment.startIndex === 'number' ? segment.startIndex : 0)
    let end = typeof segment.endIndex === 'number' ? charsAt(text, segment.endIndex) : text.length
    const cited = str(segment.text)
    if (cited && text.slice(start, end) !== cited) {
      const found = text.indexOf(cited)
      if (found === -1) continue
      start = found
      end = found + cited.length
    }
    for (const chunk of Array.isArray(support.groundingChunkIndices) ? support.groundingChunkIndices as unknown[] : []) {
      const page = typeof chunk === 'number' ? pages[chunk] : undefined
      if (!page?.url) continue
      grounding.citations.push({ start, end, citation: { url: page.url, ...(page.title && { title: page.title }), citedText: text.slice(start, end), origin: 'generate' } })
    }
  }
  return grounding
}

/** Text parts with where each starts in the joined text: a citation range is placed on the part holding its start. */
export function placeCitation(texts: Array<{ at: number; part: { text: string } }>, start: number, end: number): { slot: number; start: number; end: number } | undefined {
  for (let slot = texts.length - 1; slot >= 0; slot--) {
    const { at, part } = texts[slot]!
    if (start >= at) return { slot, start: start - at, end: Math.min(end, at + part.text.length) - at }
  }
  return undefined
}

/** Grounding of a whole candidate's parts: searches go before the first text part, citations onto the text parts. */
export function groundParts(parts: Part[], metadata: unknown, id: string): Part[] {
  const texts: Array<{ at: number; part: TextPart }> = []
  let joined = ''
  for (const part of parts) if (part.type === 'text' && !part.refusal) { texts.push({ at: joined.length, part }); joined += part.text }
  const grounding = groundingFrom(metadata, joined, id)
  for (const { start, end, citation } of grounding.citations) {
    const place = placeCitation(texts, start, end)
    if (!place) continue
    const part = texts[place.slot]!.part
    ;(part.citations ??= []).push({ ...citation, start: place.start, end: place.end })
  }
  if (!grounding.searches.length) return parts
  const first = parts.findIndex(part => part.type === 'text')
  const at = first === -1 ? parts.length : first
  return [...parts.slice(0, at), ...grounding.searches, ...parts.slice(at)]
}

/**
 * Canonical searches and citations -> `groundingMetadata` for a generate client (undefined when there are
 * none). Segments are byte offsets into the candidate's text parts joined, as the client reads them.
 */
export function groundingTo(searches: WebSearchPart[], texts: TextPart[]): Raw | undefined {
  const chunks: Array<{ web: { uri: string; title: string } }> = []
  const chunkOf = (url: string, title?: string) => {
    let i = chunks.findIndex(chunk => chunk.web.uri === url)
    if (i === -1) i = chunks.push({ web: { uri: url, title: title ?? url } }) - 1
    return i
  }
  for (const search of searches) for (const source of search.sources) chunkOf(source.url, source.title)
  const supports: Raw[] = []
  let joined = ''
  for (const part of texts) {
    for (const citation of part.citations ?? []) {
      const start = citation.start ?? 0
      const end = citation.end ?? part.text.length
      const whole = joined + part.text
      supports.push({ segment: { startIndex: bytesAt(whole, joined.length + start), endIndex: bytesAt(whole, joined.length + end), text: part.text.slice(start, end) }, groundingChunkIndices: [chunkOf(citation.url, citation.title)] })
    }
    joined += part.text
  }
  const queries = searches.flatMap(search => search.query !== undefined ? [search.query] : [])
  if (!queries.length && !chunks.length) return undefined
  return { ...(queries.length && { webSearchQueries: queries }), groundingChunks: chunks, groundingSupports: supports }
}
