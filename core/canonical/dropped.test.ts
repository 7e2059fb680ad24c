import { describe, expect, it } from 'vitest'
import type { WireFormat } from './codec.ts'
import type { CanonicalRequest } from './types.ts'
import { droppedFields } from './dropped.ts'

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
    ['a json schema does', { responseFormat: { type: 'json_schema', schema: {} } }, 'chat', 'messages', ['response_format']],
    ['user has no generateContent parameter', { user: 'u' }, 'chat', 'generate', ['user']],
    ['names a format lacks fall back to the canonical name', { user: 'u', parallelToolCalls: false }, 'generate', 'generate', []],
  ])('%s', (_name, patch, client, upstream, expected) => {
    expect(droppedFields({ ...base, ...patch }, client, upstream)).toEqual(expected)
  })
})
