import type { CanonicalRequest } from 'model-proxy'
import type { Json } from './guards.ts'
import { encodeInput } from './input-encode.ts'
import { encodeReasoning } from './reasoning-param.ts'
import { encodeTextFormat } from './text-format.ts'
import { encodeToolChoice, encodeTools } from './tools.ts'
import { isWebSearch, webSearchTool } from './web-search.ts'

/**
 * Canonical request -> `/v1/responses` body. `extensions.responses` (unknown fields of a responses
 * client) goes first; canonical fields override it, and the partly mapped ones (tools, tool_choice,
 * reasoning, text) are merged with their kept wire remainder.
 *
 * Not sent, because the format has no such parameter: `stop`, `topK`, `seed`, `n`, presence and
 * frequency penalties.
 */
export function encodeRequest(request: CanonicalRequest): Json {
  const { tools: wireTools, tool_choice: wireChoice, reasoning: wireReasoning, text: wireText, ...rest } = request.extensions?.responses ?? {}
  const { instructions, input } = encodeInput(request.messages)
  const body: Json = { ...rest, model: request.model }
  const put = (key: string, value: unknown) => {
    if (value !== undefined) body[key] = value
  }
  put('instructions', instructions)
  body.input = input
  put('max_output_tokens', request.maxTokens)
  put('temperature', request.temperature)
  put('top_p', request.topP)
  put('parallel_tool_calls', request.parallelToolCalls)
  put('user', request.user)
  put('prompt_cache_key', request.promptCacheKey)
  put('safety_identifier', request.safetyIdentifier)
  put('store', request.store)
  const tools = encodeTools(request.tools, wireTools)
  if (request.webSearch && !tools.some(isWebSearch)) tools.push(webSearchTool(request.webSearch))
  if (tools.length) body.tools = tools
  put('tool_choice', encodeToolChoice(request.toolChoice) ?? wireChoice)
  put('reasoning', encodeReasoning(request.reasoning, wireReasoning))
  put('text', encodeTextFormat(request.responseFormat, wireText, request.verbosity))
  body.stream = request.stream
  return body
}
