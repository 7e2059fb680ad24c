import type { WebSearch } from 'model-proxy'

type Raw = Record<string, any>

/** The server tool's versioned type (`web_search_20250305`...); what this codec sends. */
export const isWebSearchTool = (tool: Raw) => typeof tool?.type === 'string' && tool.type.startsWith('web_search_')
const webSearchType = 'web_search_20250305'

const strings = (value: unknown) => Array.isArray(value) && value.every(item => typeof item === 'string') ? value as string[] : undefined

/** `{type: 'web_search_...', max_uses, allowed_domains, blocked_domains, user_location}` -> canonical. */
export function webSearchFromTool(tool: Raw): WebSearch {
  const search: WebSearch = {}
  if (typeof tool.max_uses === 'number') search.maxUses = tool.max_uses
  const allowed = strings(tool.allowed_domains)
  const blocked = strings(tool.blocked_domains)
  if (allowed) search.allowedDomains = allowed
  if (blocked) search.blockedDomains = blocked
  const where = tool.user_location
  if (where && typeof where === 'object') {
    const location = Object.fromEntries(['city', 'region', 'country', 'timezone'].filter(key => typeof where[key] === 'string').map(key => [key, where[key]]))
    if (Object.keys(location).length) search.userLocation = location
  }
  return search
}

export function webSearchToTool(search: WebSearch): Raw {
  const tool: Raw = { type: webSearchType, name: 'web_search' }
  if (search.maxUses !== undefined) tool.max_uses = search.maxUses
  // The API takes one of the two lists, not both: an allow list says more.
  if (search.allowedDomains?.length) tool.allowed_domains = search.allowedDomains
  else if (search.blockedDomains?.length) tool.blocked_domains = search.blockedDomains
  if (search.userLocation) tool.user_location = { type: 'approximate', ...search.userLocation }
  return tool
}
