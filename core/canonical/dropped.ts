import type { WireFormat } from './codec.ts'
import type { CanonicalRequest } from './types.ts'

type Field = 'stop' | 'topK' | 'seed' | 'n' | 'presencePenalty' | 'frequencyPenalty' | 'responseFormat' | 'user' | 'parallelToolCalls'

/** Canonical fields each upstream format has no parameter for (its encoder leaves them out). */
export const inexpressible: Partial<Record<WireFormat, readonly Field[]>> = {
  chat: ['topK'],
  responses: ['stop', 'topK', 'seed', 'n', 'presencePenalty', 'frequencyPenalty'],
  messages: ['seed', 'n', 'presencePenalty', 'frequencyPenalty', 'responseFormat'],
  generate: ['user', 'parallelToolCalls'],
}

/** What each client format calls those fields, so the client reads its own words back. */
export const clientFieldNames: Partial<Record<WireFormat, Partial<Record<Field, string>>>> = {
  chat: { presencePenalty: 'presence_penalty', frequencyPenalty: 'frequency_penalty', responseFormat: 'response_format', parallelToolCalls: 'parallel_tool_calls', topK: 'top_k' },
  responses: { responseFormat: 'text.format', parallelToolCalls: 'parallel_tool_calls' },
  messages: { stop: 'stop_sequences', topK: 'top_k', user: 'metadata.user_id', responseFormat: 'output_config.format', parallelToolCalls: 'tool_choice.disable_parallel_tool_use' },
  generate: {
    stop: 'generationConfig.stopSequences', topK: 'generationConfig.topK', seed: 'generationConfig.seed', n: 'generationConfig.candidateCount',
    presencePenalty: 'generationConfig.presencePenalty', frequencyPenalty: 'generationConfig.frequencyPenalty', responseFormat: 'generationConfig.responseMimeType',
  },
}

/** `n: 1` and a plain-text format ask for nothing beyond the default: nothing is lost without them. */
function asksSomething(request: CanonicalRequest, field: Field): boolean {
  const value = request[field]
  if (value === undefined) return false
  if (field === 'n') return value !== 1
  if (field === 'responseFormat') return request.responseFormat!.type !== 'text'
  return true
}

/**
 * What a request from a `client` format loses on its way to an `upstream` format, in the client's own
 * field names: what its decoder could only keep for the same format (`unmapped`), then the canonical
 * fields the upstream format cannot express. Empty when the formats match (the body goes as it came).
 */
export function droppedFields(request: CanonicalRequest, client: WireFormat, upstream: WireFormat): string[] {
  if (client === upstream) return []
  const dropped = new Set(request.unmapped)
  // A plugin's format is not in these tables: only what its decoder reported as unmapped counts.
  for (const field of inexpressible[upstream] ?? []) if (asksSomething(request, field)) dropped.add(clientFieldNames[client]?.[field] ?? field)
  return [...dropped]
}
