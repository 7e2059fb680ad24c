import { describe, expect, it } from 'vitest'
import { decodeChatRequest } from './request-decode.ts'

const body = (web_search_options: unknown) => ({ model: 'gpt-4o-search-preview', messages: [{ role: 'user', content: 'news?' }], web_search_options })

// `web_search_options`: `search_context_size` and `user_location: {type: 'approximate', approximate: {...}}`.
describe('chat web_search_options', () => {
  it.each([
    [{}, {}],
    [{ search_context_size: 'high' }, { contextSize: 'high' }],
    [{ user_location: { type: 'approximate', approximate: { city: 'Paris', country: 'FR', timezone: 'Europe/Paris' } } }, { userLocation: { city: 'Paris', country: 'FR', timezone: 'Europe/Paris' } }],
  ])('%j is the hosted web search other formats send', (options, search) => {
    const request = decodeChatRequest(body(options))
    expect(request.webSearch).toEqual(search)
    expect(request.unmapped).toBeUndefined()
  })
})
