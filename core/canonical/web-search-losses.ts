import type { WireFormat } from './codec.ts'
import type { WebSearch } from './types.ts'

type Option = 'allowedDomains' | 'blockedDomains' | 'maxUses' | 'userLocation' | 'contextSize'

/**
 * The hosted web search options each upstream's tool takes: messages `web_search_*` (one domain list,
 * `max_uses`, `user_location`), responses `web_search` (`filters.allowed_domains`, `user_location`,
 * `search_context_size`), a chat search model's `web_search_options` (`user_location`,
 * `search_context_size`); the Gemini API's `googleSearch` takes none of them.
 */
const carried: Partial<Record<WireFormat, readonly Option[]>> = {
  messages: ['allowedDomains', 'blockedDomains', 'maxUses', 'userLocation'],
  responses: ['allowedDomains', 'userLocation', 'contextSize'],
  chat: ['userLocation', 'contextSize'],
  generate: [],
}

/** Each option in the client's words (its own name for what it could send; snake_case otherwise). */
const optionNames: Partial<Record<WireFormat, Partial<Record<Option, string>>>> = {
  responses: { allowedDomains: 'filters.allowed_domains', contextSize: 'search_context_size' },
  chat: { contextSize: 'search_context_size' },
  generate: { blockedDomains: 'excludeDomains' },
}
const snake: Record<Option, string> = { allowedDomains: 'allowed_domains', blockedDomains: 'blocked_domains', maxUses: 'max_uses', userLocation: 'user_location', contextSize: 'search_context_size' }

const present = (search: WebSearch, option: Option) => {
  const value = search[option]
  return Array.isArray(value) ? value.length > 0 : value !== undefined
}

/**
 * What of a web search the upstream's tool cannot carry, named under the client's tool
 * (`tool:web_search.max_uses`, `tool:googleSearch.excludeDomains`). The messages tool takes one list:
 * with an allow list, the block list is lost. A format a plugin registered is not in these tables.
 */
export function webSearchLosses(search: WebSearch, client: WireFormat, upstream: WireFormat, toolName: string): string[] {
  const takes = carried[upstream]
  if (!takes) return []
  const lost = (Object.keys(snake) as Option[]).filter(option => present(search, option) && !takes.includes(option))
  if (upstream === 'messages' && present(search, 'allowedDomains') && present(search, 'blockedDomains')) lost.push('blockedDomains')
  return lost.map(option => `${toolName}.${optionNames[client]?.[option] ?? snake[option]}`)
}
