import { describe, expect, it } from 'vitest'
import { chatSearchModel, chatSearchOptions } from './chat-search.ts'
import { droppedFields } from './dropped.ts'
import type { CanonicalRequest } from './types.ts'

describe('chat search models', () => {
  it.each([
    ['gpt-4o-search-preview', true], ['gpt-4o-mini-search-preview-2025-03-11', true], ['gpt-5-search-api', true], ['openai/gpt-4o-search-preview', true],
    ['gpt-4o', false], ['mock-gpt', false], ['research-preview', false], ['searchlight-api', false],
  ])('%s: %s', (model, expected) => {
    expect(chatSearchModel(model)).toBe(expected)
  })

  it.each([
    [{}, {}],
    [{ contextSize: 'high' as const }, { search_context_size: 'high' }],
    [{ userLocation: { city: 'Paris', country: 'FR' } }, { user_location: { type: 'approximate', approximate: { city: 'Paris', country: 'FR' } } }],
    [{ allowedDomains: ['a.example'], maxUses: 3 }, {}],
  ])('%j -> %j', (search, options) => {
    expect(chatSearchOptions(search)).toEqual(options)
  })

  it('a messages web search toward a chat upstream: mapped for a search model, named dropped otherwise', () => {
    const request: CanonicalRequest = { model: 'client-name', stream: false, webSearch: { maxUses: 2 }, messages: [{ role: 'user', parts: [{ type: 'text', text: 'news' }] }] }
    expect(droppedFields(request, 'messages', 'chat', [], 'gpt-4o')).toEqual(['tool:web_search'])
    expect(droppedFields(request, 'messages', 'chat', [], 'gpt-4o-search-preview')).toEqual(['tool:web_search.max_uses'])
    expect(droppedFields(request, 'generate', 'chat', [], 'gpt-5-search-api')).toEqual(['tool:googleSearch.max_uses'])
  })
})
