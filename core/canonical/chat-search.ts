import type { WebSearch } from './types.ts'

/**
 * The chat completions format's web search: `web_search_options`, which only the vendor's search models
 * take (`gpt-4o-search-preview`, `gpt-4o-mini-search-preview`, `gpt-5-search-api`); any other chat model
 * refuses the parameter. Toward those models a web search tool maps to it; toward any other it is
 * dropped and named in `x-proxy-dropped`.
 */
export const chatSearchModel = (model: string): boolean => /(^|[/-])search-(preview|api)\b/.test(model)

/** `web_search_options` for a canonical web search (the parameter has no domain filters or use limit). */
export function chatSearchOptions(search: WebSearch): Record<string, unknown> {
  const location = search.userLocation
  return {
    ...(search.contextSize && { search_context_size: search.contextSize }),
    ...(location && Object.keys(location).length && { user_location: { type: 'approximate', approximate: { ...location } } }),
  }
}
