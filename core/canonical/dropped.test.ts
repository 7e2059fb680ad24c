import { describe, expect, it } from 'vitest'
import type { WireFormat } from './codec.ts'
import type { CanonicalRequest } from './types.ts'
import { droppedFields, droppedHeaderValue, headerSafeName } from './dropped.ts'

const base: CanonicalRequest = { model: 'm', messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }], stream: false }

describe('droppedFields', () => {
  it.each<[string, Partial<CanonicalRequest>, WireFormat, WireFormat, string[]]>([
    ['same format loses nothing', { unmapped: ['context_management'], topK: 5 }, 'messages', 'messages', []],
    ['unmapped fields first, in the client\'s words', { unmapped: ['context_management', 'output_config.task_budget'] }, 'messages', 'chat', ['context_management', 'output_config.task_budget']],
    ['top_k has no chat parameter', { topK: 5 }, 'messages', 'chat', ['top_k']],
    ['stop has no responses parameter', { stop: ['x'] }, 'messages', 'responses', ['stop_sequences']],
    ['generateContent names', { stop: ['x'], seed: 1, n: 2 }, 'generate', 'responses', ['generationConfig.stopSequences', 'generationConfig.seed', 'generationConfig.candidateCount']],
    ['n: 1 asks nothing', { n: 1 }, 'chat', 'messages', []],
    ['a text response format asks nothing', { responseFormat: { type: 'text' } }, 'chat', 'messages', []],
    ['a json schema reaches messages (output_config.format)', { responseFormat: { type: 'json_schema', schema: {} } }, 'chat', 'messages', []],
    ['schema-less JSON does not', { responseFormat: { type: 'json_object' } }, 'chat', 'messages', ['response_format']],
    ['chat and responses share cache key, safety id, verbosity, store', { promptCacheKey: 'k', safetyIdentifier: 's', verbosity: 'low', store: true }, 'chat', 'responses', []],
    ['other formats have none of them', { promptCacheKey: 'k', safetyIdentifier: 's', verbosity: 'low', store: true }, 'responses', 'messages', ['prompt_cache_key', 'safety_identifier', 'text.verbosity', 'store']],
    ['store: false asks nothing', { store: false }, 'chat', 'generate', []],
    ['web search: no chat tool', { webSearch: {} }, 'messages', 'chat', ['tool:web_search']],
    ['web search reaches generateContent', { webSearch: {} }, 'messages', 'generate', []],
    ['a document chat cannot take (by URL)', { messages: [{ role: 'user', parts: [{ type: 'file', url: 'https://x.test/a.pdf', mediaType: 'application/pdf' }] }] }, 'messages', 'chat', ['document']],
    ['another vendor\'s upload id', { messages: [{ role: 'user', parts: [{ type: 'file', fileId: 'file-1', origin: 'chat' }] }] }, 'chat', 'messages', ['file']],
    ['OpenAI uploads are valid in chat and responses', { messages: [{ role: 'user', parts: [{ type: 'file', fileId: 'file-1', origin: 'chat' }] }] }, 'chat', 'responses', []],
    ['is_error has no chat place', { messages: [{ role: 'tool', parts: [{ type: 'tool_result', callId: 'c', content: 'x', isError: true }] }] }, 'messages', 'chat', ['tool_result.is_error']],
    ['is_error reaches generateContent', { messages: [{ role: 'tool', parts: [{ type: 'tool_result', callId: 'c', content: 'x', isError: true }] }] }, 'messages', 'generate', []],
    ['user has no generateContent parameter', { user: 'u' }, 'chat', 'generate', ['user']],
    ['names a format lacks fall back to the canonical name', { user: 'u', parallelToolCalls: false }, 'generate', 'generate', []],
  ])('%s', (_name, patch, client, upstream, expected) => {
    expect(droppedFields({ ...base, ...patch }, client, upstream)).toEqual(expected)
  })

  it('adapted fields follow, in the client\'s words', () => {
    expect(droppedFields(base, 'chat', 'messages', ['reasoning', 'topP'])).toEqual(['reasoning_effort', 'top_p'])
    expect(droppedFields(base, 'generate', 'chat', ['stop'])).toEqual(['generationConfig.stopSequences'])
  })
})

describe('droppedHeaderValue', () => {
  it('joins the names as they are when they fit', () => {
    expect(droppedHeaderValue(['top_k', 'stop_sequences'])).toBe('top_k,stop_sequences')
  })

  it('cuts a long name (an unknown role of 5,000 letters) and a long list, so the answer\'s headers stay readable', () => {
    const long = droppedHeaderValue([headerSafeName(`role:${'é'.repeat(5000)}`)])
    expect(long.length).toBeLessThan(200)
    expect(long.endsWith('...')).toBe(true)
    const many = droppedHeaderValue(Array.from({ length: 1000 }, (_, i) => `unknown_field_${i}`))
    expect(many.length).toBeLessThanOrEqual(2048)
    expect(many).toMatch(/^unknown_field_0,unknown_field_1,.*,\.\.\.\(\d+ more\)$/)
    expect(Number(/\((\d+) more\)$/.exec(many)![1]) + many.split(',').length - 1).toBe(1000)
  })
})
