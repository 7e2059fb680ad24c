import type { WebSearch } from 'model-proxy'
import { isObject, type Json } from './guards.ts'

/** `web_search`, its dated and `_preview` variants. */
export const isWebSearch = (tool: Json) => typeof tool.type === 'string' && tool.type.startsWith('web_search')

const strings = (value: unknown) => Array.isArray(value) && value.every(item => typeof item === 'string') ? value as string[] : undefined
const sizes = new Set(['low', 'medium', 'high'])

/** The first web search tool of a tools list -> canonical (`filters.allowed_domains`, `user_location`, `search_context_size`). */
export function webSearchOf(tools: Json[] | undefined): WebSearch | undefined {
  const tool = tools?.find(isWebSearch)
  if (!tool) return undefined
  const search: WebSearch = {}
  const allowed = isObject(tool.filters) ? strings(tool.filters.allowed_domains) : undefined
  if (allowed) search.allowedDomains = allowed
  if (isObject(tool.user_location)) {
    const where = tool.user_location
    const location = Object.fromEntries(['city', 'region', 'country', 'timezone'].filter(key => typeof where[key] === 'string').map(key => [key, where[key]]))
    if (Object.keys(location).length) search.userLocation = location
  }
  if (typeof tool.search_context_size === 'string' && sizes.has(tool.search_context_size)) search.contextSize = tool.search_context_size as WebSearch['contextSize']
  return search
}

/** Canonical -> `{type: 'web_search', ...}`. The format has no block list or use limit. */
export function webSearchTool(search: WebSearch): Json {
  const tool: Json = { type: 'web_search' }
  if (search.allowedDomains?.length) tool.filters = { allowed_domains: search.allowedDomains }
  if (search.userLocation) tool.user_location = { type: 'approximate', ...search.userLocation }
  if (search.contextSize) tool.search_context_size = search.contextSize
  return tool
}

const searchKeys = new Set(['type', 'filters', 'user_location', 'search_context_size', 'external_web_access'])

/**
 * What of the web search tool other formats' searches cannot do, named under the tool: a newer key, and
 * `external_web_access: false` (cached pages only; Codex sends it), which no other search can keep to.
 */
export function webSearchKeyLosses(tools: Json[] | undefined): string[] {
  const tool = tools?.find(isWebSearch)
  if (!tool) return []
  const lost = Object.keys(tool).filter(key => !searchKeys.has(key)).map(key => `tool:web_search.${key}`)
  if (isObject(tool.filters)) lost.push(...Object.keys(tool.filters).filter(key => key !== 'allowed_domains').map(key => `tool:web_search.filters.${key}`))
  if (tool.external_web_access !== undefined && tool.external_web_access !== true) lost.push('tool:web_search.external_web_access')
  return lost
}
