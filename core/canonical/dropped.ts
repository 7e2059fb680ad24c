import type { WireFormat } from './codec.ts'
import type { CanonicalRequest } from './types.ts'
import type { AdaptedField } from './request-rules.ts'
import { contentLosses, type ContentLoss } from './content-losses.ts'
import { chatSearchModel } from './chat-search.ts'
import { webSearchLosses } from './web-search-losses.ts'

type Field =
  | 'stop' | 'topK' | 'seed' | 'n' | 'presencePenalty' | 'frequencyPenalty' | 'responseFormat' | 'user' | 'parallelToolCalls'
  | 'webSearch' | 'promptCacheKey' | 'safetyIdentifier' | 'verbosity' | 'store'

/** Canonical fields each upstream format has no parameter for (its encoder leaves them out). */
export const inexpressible: Partial<Record<WireFormat, readonly Field[]>> = {
  chat: ['topK', 'webSearch'],
  responses: ['stop', 'topK', 'seed', 'n', 'presencePenalty', 'frequencyPenalty'],
  messages: ['seed', 'n', 'presencePenalty', 'frequencyPenalty', 'responseFormat', 'promptCacheKey', 'safetyIdentifier', 'verbosity', 'store'],
  generate: ['user', 'parallelToolCalls', 'promptCacheKey', 'safetyIdentifier', 'verbosity', 'store'],
}

type Named = Field | AdaptedField | ContentLoss

/** What each client format calls those fields, so the client reads its own words back. */
export const clientFieldNames: Partial<Record<WireFormat, Partial<Record<Named, string>>>> = {
  chat: {
    presencePenalty: 'presence_penalty', frequencyPenalty: 'frequency_penalty', responseFormat: 'response_format', parallelToolCalls: 'parallel_tool_calls', topK: 'top_k',
    promptCacheKey: 'prompt_cache_key', safetyIdentifier: 'safety_identifier', topP: 'top_p', reasoning: 'reasoning_effort', maxTokens: 'max_tokens',
    audio: 'input_audio', webSearch: 'web_search_options', imageDetail: 'image_url.detail',
  },
  responses: {
    responseFormat: 'text.format', parallelToolCalls: 'parallel_tool_calls', promptCacheKey: 'prompt_cache_key', safetyIdentifier: 'safety_identifier',
    verbosity: 'text.verbosity', webSearch: 'tool:web_search', topP: 'top_p', maxTokens: 'max_output_tokens', file: 'input_file', audio: 'input_file', imageDetail: 'input_image.detail',
  },
  messages: {
    stop: 'stop_sequences', topK: 'top_k', user: 'metadata.user_id', responseFormat: 'output_config.format', parallelToolCalls: 'tool_choice.disable_parallel_tool_use',
    webSearch: 'tool:web_search', topP: 'top_p', reasoning: 'thinking', maxTokens: 'max_tokens', file: 'document', audio: 'document', isError: 'tool_result.is_error', webSearchResult: 'web_search_tool_result',
  },
  generate: {
    stop: 'generationConfig.stopSequences', topK: 'generationConfig.topK', seed: 'generationConfig.seed', n: 'generationConfig.candidateCount',
    presencePenalty: 'generationConfig.presencePenalty', frequencyPenalty: 'generationConfig.frequencyPenalty', responseFormat: 'generationConfig.responseMimeType',
    webSearch: 'tool:googleSearch', temperature: 'generationConfig.temperature', topP: 'generationConfig.topP', reasoning: 'generationConfig.thinkingConfig',
    maxTokens: 'generationConfig.maxOutputTokens', file: 'inlineData', audio: 'inlineData', isError: 'functionResponse.response.error',
  },
}

/** A strict function tool in the client's words: chat and responses take it, the others have no such tool. */
const strictNames: Partial<Record<WireFormat, string>> = { chat: 'tools.function.strict', responses: 'tools.strict', messages: 'tools.strict' }
const takesStrict: ReadonlySet<WireFormat> = new Set(['chat', 'responses'])

/** A field's name in the client's words (the canonical name when the format has none of its own). */
export const clientName = (client: WireFormat, field: Named) => clientFieldNames[client]?.[field] ?? field

/**
 * `n: 1`, a plain-text format and `store: false` ask for nothing beyond the default: nothing is lost
 * without them. The messages format takes a JSON schema (`output_config.format`) but has no schema-less
 * JSON mode.
 */
function asksSomething(request: CanonicalRequest, field: Field, upstream: WireFormat): boolean {
  const value = request[field]
  if (value === undefined) return false
  if (field === 'n') return value !== 1
  if (field === 'store') return value === true
  if (field === 'responseFormat') return upstream === 'messages' ? request.responseFormat!.type === 'json_object' : request.responseFormat!.type !== 'text'
  return true
}

/**
 * What a request from a `client` format loses on its way to an `upstream` format, in the client's own
 * field names: what its decoder could only keep for the same format (`unmapped`), the canonical fields
 * the upstream format cannot express, content it cannot carry, then what the upstream's request rules
 * made the proxy trim or change (`adapted`, from `fitRequest`). Empty when the formats match (the body
 * goes as it came). `upstreamModel`: a chat search model takes a web search (chat-search.ts).
 */
export function droppedFields(request: CanonicalRequest, client: WireFormat, upstream: WireFormat, adapted: readonly AdaptedField[] = [], upstreamModel = request.model): string[] {
  // Same format: the body goes as it came, unless it replays another vendor's answer (signature-slots.ts):
  // then that vendor's search results are left out of it.
  if (client === upstream) return contentLosses(request.messages, upstream).filter(loss => loss === 'webSearchResult').map(loss => clientName(client, loss))
  const dropped = new Set(request.unmapped)
  // A plugin's format is not in these tables: only what its decoder reported as unmapped counts.
  const searching = upstream === 'chat' && request.webSearch !== undefined && chatSearchModel(upstreamModel)
  for (const field of inexpressible[upstream] ?? []) {
    if (field === 'webSearch' && searching) continue
    if (asksSomething(request, field, upstream)) dropped.add(clientName(client, field))
  }
  // The search goes (a chat search model's parameter, the others' tool): what of its options cannot, is named.
  const searchGoes = request.webSearch !== undefined && (upstream !== 'chat' || searching)
  if (searchGoes) for (const lost of webSearchLosses(request.webSearch!, client, upstream, clientName(client, 'webSearch'))) dropped.add(lost)
  for (const loss of contentLosses(request.messages, upstream)) dropped.add(clientName(client, loss))
  for (const field of adapted) dropped.add(clientName(client, field))
  if (!takesStrict.has(upstream) && request.tools?.some(tool => tool.strict)) dropped.add(strictNames[client] ?? 'tools.strict')
  // Anthropic's search results come encrypted, for Anthropic alone: a client of another format gets them without.
  if (request.webSearch && upstream === 'messages') dropped.add('web_search_tool_result.encrypted_content')
  return [...dropped].map(headerSafeName)
}

/**
 * A client's unknown key goes back in a header: anything but printable ASCII (a NUL, a lone surrogate,
 * a non-Latin letter) and the list's own comma are written as `\uXXXX`, so the name reads back and the
 * header stays valid (an invalid one fails the whole answer).
 */
export function headerSafeName(name: string): string {
  return /^[\x20-\x2b\x2d-\x7e]*$/.test(name) ? name : name.replace(/[^\x20-\x2b\x2d-\x7e]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The header's room: clients refuse a whole answer whose headers pass 16 KB (Node's and undici's default). */
const headerBytes = 2048
const nameChars = 128

/**
 * The `x-proxy-dropped` value: the names joined, each cut to `nameChars` and the list to `headerBytes`
 * (unknown keys and roles are the client's own words, of any length or number), the rest counted.
 */
export function droppedHeaderValue(names: readonly string[]): string {
  let value = ''
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!.length > nameChars ? `${names[i]!.slice(0, nameChars)}...` : names[i]!
    const rest = names.length - i - 1
    if (value.length + name.length + 1 > headerBytes - (rest ? 16 : 0)) return `${value},...(${names.length - i} more)`
    value = value ? `${value},${name}` : name
  }
  return value
}
