import type { WebSearch } from 'model-proxy'

const sizes = new Set(['low', 'medium', 'high'])

/**
 * `web_search_options` (the search models' parameter: `search_context_size`, `user_location:
 * {type: 'approximate', approximate: {city, region, country, timezone}}`) -> the canonical web search,
 * which other formats send as their hosted search tool. Encoding back is chatSearchOptions (core).
 */
export function webSearchFromOptions(options: Record<string, unknown>): WebSearch {
  const search: WebSearch = {}
  if (typeof options.search_context_size === 'string' && sizes.has(options.search_context_size)) search.contextSize = options.search_context_size as WebSearch['contextSize']
  const where = (options.user_location as { approximate?: Record<string, unknown> } | null)?.approximate
  if (where && typeof where === 'object') {
    const location = Object.fromEntries(['city', 'region', 'country', 'timezone'].filter(key => typeof where[key] === 'string').map(key => [key, where[key]]))
    if (Object.keys(location).length) search.userLocation = location
  }
  return search
}
