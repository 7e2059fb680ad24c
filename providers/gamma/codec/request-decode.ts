import { type CanonicalRequest, RequestValidationError } from 'model-proxy'
import { absent, isObject, num, unknownFields, type Json } from './guards.ts'
import { decodeInput } from './input-decode.ts'
import { decodeReasoning } from './reasoning-param.ts'
import { decodeTextFormat } from './text-format.ts'
import { decodeToolChoice, decodeTools } from './tools.ts'
import { isWebSearch, webSearchKeyLosses, webSearchOf } from './web-search.ts'

/** Top-level fields mapped to canonical ones; every other field travels in `extensions.responses`. */
const mapped: ReadonlySet<string> = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'max_output_tokens', 'temperature', 'top_p',
  'reasoning', 'text', 'parallel_tool_calls', 'user', 'stream', 'prompt_cache_key', 'safety_identifier', 'store',
])

/**
 * `include` values every translated answer has anyway: the reasoning items' `encrypted_content` (the
 * signature slot, core/canonical/signature.ts) and a web search's sources. Only the others are lost.
 */
const answeredAnyway: ReadonlySet<string> = new Set(['reasoning.encrypted_content', 'web_search_call.action.sources'])

/** An optional field: absent/null is undefined; present, `pick` must accept it or the request is invalid. */
function field<T>(body: Json, key: string, pick: (value: unknown) => T | undefined, expected: string): T | undefined {
  const value = body[key]
  if (absent(value)) return undefined
  const picked = pick(value)
  if (picked === undefined) throw new RequestValidationError(`${key} must be ${expected}`, key)
  return picked
}

const between = (min: number, max: number) => (value: unknown) => {
  const n = num(value)
  return n !== undefined && n >= min && n <= max ? n : undefined
}
const positiveInt = (value: unknown) => (Number.isInteger(value) && (value as number) > 0 ? value as number : undefined)
const bool = (value: unknown) => (typeof value === 'boolean' ? value : undefined)
const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** A `/v1/responses` body -> canonical request. Throws only RequestValidationError. */
export function decodeRequest(body: unknown): CanonicalRequest {
  if (!isObject(body)) throw new RequestValidationError('request body must be a JSON object')
  const model = body.model
  if (typeof model !== 'string' || !model) throw new RequestValidationError('model is required', 'model')
  const instructions = field(body, 'instructions', text, 'a string')
  if (absent(body.input) && instructions === undefined) throw new RequestValidationError('input or instructions is required', 'input')
  const unmapped = new Set<string>()
  const tools = decodeTools(body.tools)
  // Calls in the conversation name a namespaced tool the way its definition does (namespace-tools.ts).
  const messages = decodeInput(body.input, instructions, unmapped, tools.tools)
  if (!messages.length) throw new RequestValidationError('input has no message to send', 'input')

  const request: CanonicalRequest = { model, messages, stream: field(body, 'stream', bool, 'a boolean') ?? false }
  const maxTokens = field(body, 'max_output_tokens', positiveInt, 'a positive integer')
  const temperature = field(body, 'temperature', between(0, 2), 'a number between 0 and 2')
  const topP = field(body, 'top_p', between(0, 1), 'a number between 0 and 1')
  const parallelToolCalls = field(body, 'parallel_tool_calls', bool, 'a boolean')
  const user = field(body, 'user', text, 'a string')
  if (maxTokens !== undefined) request.maxTokens = maxTokens
  if (temperature !== undefined) request.temperature = temperature
  if (topP !== undefined) request.topP = topP
  if (parallelToolCalls !== undefined) request.parallelToolCalls = parallelToolCalls
  if (user !== undefined) request.user = user
  const cacheKey = field(body, 'prompt_cache_key', text, 'a string')
  const safety = field(body, 'safety_identifier', text, 'a string')
  const store = field(body, 'store', bool, 'a boolean')
  if (cacheKey !== undefined) request.promptCacheKey = cacheKey
  if (safety !== undefined) request.safetyIdentifier = safety
  if (store !== undefined) request.store = store

  const choice = decodeToolChoice(body.tool_choice)
  const reasoning = decodeReasoning(body.reasoning)
  const format = decodeTextFormat(body.text)
  if (tools.tools) request.tools = tools.tools
  if (choice.choice) request.toolChoice = choice.choice
  if (reasoning.reasoning) request.reasoning = reasoning.reasoning
  if (format.format) request.responseFormat = format.format
  if (format.verbosity) request.verbosity = format.verbosity
  const search = webSearchOf(tools.wire)
  if (search) request.webSearch = search

  // What canonical fields cannot hold, in wire shape; request-encode merges it back.
  const extension: Json = unknownFields(body, mapped)
  if (tools.wire) extension.tools = tools.wire
  if (choice.wire) extension.tool_choice = choice.wire
  if (reasoning.wire) extension.reasoning = reasoning.wire
  if (format.wire) extension.text = format.wire
  if (Object.keys(extension).length) request.extensions = { responses: extension }
  for (const key of Object.keys(unknownFields(body, mapped))) {
    if (key === 'include' && Array.isArray(body.include)) for (const value of body.include) { if (!answeredAnyway.has(value as string)) unmapped.add(`include:${String(value)}`) }
    // `stream_options.include_obfuscation`: a translated stream has no obfuscation padding to leave out.
    else if (key !== 'stream_options') unmapped.add(key)
  }
  for (const tool of tools.wire ?? []) if (tool.type !== 'function' && tool.type !== 'namespace' && !isWebSearch(tool)) unmapped.add(`tool:${String(tool.type)}`)
  for (const lost of [...tools.dropped ?? [], ...reasoning.dropped ?? [], ...format.dropped ?? [], ...choice.dropped ?? [], ...webSearchKeyLosses(tools.wire)]) unmapped.add(lost)
  if (choice.wire) unmapped.add('tool_choice')
  for (const key of Object.keys(format.wire ?? {})) unmapped.add(`text.${key}`)
  if (unmapped.size) request.unmapped = [...unmapped]
  return request
}

/** `/v1/responses/compact`: the same conversation shape, answered in one piece. */
export function decodeCompact(body: unknown): CanonicalRequest {
  return { ...decodeRequest(body), stream: false }
}

/**
 * `/v1/responses/input_tokens`: every field optional, as the vendor's. A body with nothing to count
 * (no input, no instructions) is undefined, 0 tokens; the model, if any, is only for the key's access.
 */
export function decodeInputTokens(body: Record<string, unknown>): CanonicalRequest | undefined {
  if (absent(body.input) && absent(body.instructions)) return undefined
  if (Array.isArray(body.input) && !body.input.length && absent(body.instructions)) return undefined
  return decodeRequest({ ...body, model: typeof body.model === 'string' && body.model ? body.model : 'input-tokens', stream: false })
}
