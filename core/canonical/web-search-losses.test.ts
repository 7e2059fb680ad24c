import { describe, expect, it } from 'vitest'
import type { WireFormat } from './codec.ts'
import type { WebSearch } from './types.ts'
import { webSearchLosses } from './web-search-losses.ts'
import { droppedFields } from './dropped.ts'

const everything: WebSearch = { allowedDomains: ['a.test'], maxUses: 3, userLocation: { city: 'Paris' }, contextSize: 'high' }

describe('webSearchLosses', () => {
  it.each<[string, WebSearch, WireFormat, WireFormat, string, string[]]>([
    ['messages -> responses: no use limit, no block list', { blockedDomains: ['b.test'], maxUses: 2, userLocation: { city: 'Paris' } }, 'messages', 'responses', 'tool:web_search', ['tool:web_search.blocked_domains', 'tool:web_search.max_uses']],
    ['messages -> generateContent: googleSearch takes no option', { allowedDomains: ['a.test'], maxUses: 2 }, 'messages', 'generate', 'tool:web_search', ['tool:web_search.allowed_domains', 'tool:web_search.max_uses']],
    ['responses -> messages: no context size', everything, 'responses', 'messages', 'tool:web_search', ['tool:web_search.search_context_size']],
    ['responses names its allow list its own way', everything, 'responses', 'generate', 'tool:web_search', ['tool:web_search.filters.allowed_domains', 'tool:web_search.max_uses', 'tool:web_search.user_location', 'tool:web_search.search_context_size']],
    ['messages: one list, the allow list wins', { allowedDomains: ['a.test'], blockedDomains: ['b.test'] }, 'messages', 'messages', 'tool:web_search', ['tool:web_search.blocked_domains']],
    ['generateContent excludeDomains -> responses', { blockedDomains: ['b.test'] }, 'generate', 'responses', 'tool:googleSearch', ['tool:googleSearch.excludeDomains']],
    ['generateContent excludeDomains -> messages: carried', { blockedDomains: ['b.test'] }, 'generate', 'messages', 'tool:googleSearch', []],
    ['chat search options -> generateContent', { contextSize: 'low', userLocation: { country: 'FR' } }, 'chat', 'generate', 'web_search_options', ['web_search_options.user_location', 'web_search_options.search_context_size']],
    ['no options: nothing lost', {}, 'messages', 'generate', 'tool:web_search', []],
  ])('%s', (_name, search, client, upstream, tool, lost) => {
    expect(webSearchLosses(search, client, upstream, tool)).toEqual(lost)
  })

  it('x-proxy-dropped names them', () => {
    const request = { model: 'm', stream: false, webSearch: { maxUses: 2 }, messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: 'news' }] }] }
    expect(droppedFields(request, 'messages', 'generate')).toEqual(['tool:web_search.max_uses'])
    expect(droppedFields(request, 'messages', 'responses')).toEqual(['tool:web_search.max_uses'])
  })
})
