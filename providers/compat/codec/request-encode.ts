import type { CanonicalRequest, ImagePart, Message, ThinkingPart, ToolCallPart, ToolResultPart } from 'model-proxy'
import { chatSearchModel, chatSearchOptions, openaiEffort } from 'model-proxy/kit/codec'
import { contentFromParts, imageToUrl, toolResultText } from './content.ts'

type Wire = Record<string, unknown>

/**
 * One chat tool message per result (the format has no multi-result turn). Tool messages hold text only:
 * images a tool returned ride in `images` and are sent in a user message after the run of tool messages.
 */
function toolMessages(results: ToolResultPart[]): Wire[] {
  return results.map(part => {
    const images = typeof part.content === 'string' ? [] : part.content.filter((piece): piece is ImagePart => piece.type === 'image')
    return { role: 'tool', tool_call_id: part.callId, content: toolResultText(part.content), ...(images.length && { [imagesKey]: images }) }
  })
}
const imagesKey = Symbol('images')

/** Tool results' images, moved to one user message right after the tool messages they came with. */
function placeToolImages(messages: Wire[]): Wire[] {
  const out: Wire[] = []
  let pending: ImagePart[] = []
  const flush = () => {
    if (pending.length) out.push({ role: 'user', content: pending.map(image => ({ type: 'image_url', image_url: { url: imageToUrl(image) } })) })
    pending = []
  }
  for (const message of messages) {
    if (message.role !== 'tool') flush()
    const images = (message as { [imagesKey]?: ImagePart[] })[imagesKey]
    if (images) {
      pending.push(...images)
      delete (message as { [imagesKey]?: ImagePart[] })[imagesKey]
    }
    out.push(message)
  }
  flush()
  return out
}

function encodeMessages(message: Message): Wire[] {
  if (message.role === 'tool') return toolMessages(message.parts.filter((part): part is ToolResultPart => part.type === 'tool_result'))
  const out: Record<string, unknown> = { role: message.role, content: contentFromParts(message.parts) }
  if (message.name) out.name = message.name
  if (message.role === 'assistant') {
    const thinking = message.parts.filter((part): part is ThinkingPart => part.type === 'thinking' && !part.redacted).map(part => part.text).join('')
    if (thinking) out.reasoning_content = thinking
    const calls = message.parts.filter((part): part is ToolCallPart => part.type === 'tool_call')
    if (calls.length) out.tool_calls = calls.map(call => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }))
  } else if (out.content === null) {
    out.content = ''
  }
  // Tool results that arrive inside a user turn (some formats allow it) become tool messages first.
  const results = message.parts.filter((part): part is ToolResultPart => part.type === 'tool_result')
  const rest = message.parts.filter(part => part.type === 'text' || part.type === 'image' || part.type === 'file')
  if (message.role === 'user' && results.length) {
    const tools = toolMessages(results)
    return rest.length ? [...tools, { role: 'user', content: contentFromParts(rest) }] : tools
  }
  return [out]
}

/** Fields chat and responses share; chat has `verbosity` at the top level. */
function encodeOpenAIExtras(request: CanonicalRequest, body: Wire): void {
  if (request.promptCacheKey !== undefined) body.prompt_cache_key = request.promptCacheKey
  if (request.safetyIdentifier !== undefined) body.safety_identifier = request.safetyIdentifier
  if (request.verbosity !== undefined) body.verbosity = request.verbosity
  if (request.store !== undefined) body.store = request.store
}

/** Canonical -> chat-completions body. */
export function encodeChatRequest(request: CanonicalRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { ...request.extensions?.chat, model: request.model, messages: placeToolImages(request.messages.flatMap(encodeMessages)) }
  if (request.stream) body.stream = true
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens
  if (request.temperature !== undefined) body.temperature = request.temperature
  if (request.topP !== undefined) body.top_p = request.topP
  if (request.stop?.length) body.stop = request.stop
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty
  if (request.seed !== undefined) body.seed = request.seed
  if (request.n !== undefined) body.n = request.n
  if (request.user !== undefined) body.user = request.user
  if (request.tools?.length) {
    body.tools = request.tools.map(tool => ({ type: 'function', function: { name: tool.name, ...(tool.description !== undefined && { description: tool.description }), parameters: tool.parameters ?? { type: 'object', properties: {} } } }))
  }
  if (request.toolChoice) body.tool_choice = typeof request.toolChoice === 'string' ? request.toolChoice : { type: 'function', function: { name: request.toolChoice.name } }
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls
  // A web search tool has an equivalent only on the vendor's search models (core/canonical/chat-search.ts).
  if (request.webSearch && chatSearchModel(request.model)) body.web_search_options = chatSearchOptions(request.webSearch)
  // Only values the API accepts: `auto` (adaptive thinking) leaves the knob to the model's default.
  const effort = openaiEffort(request.reasoning)
  if (effort) body.reasoning_effort = effort
  const format = request.responseFormat
  if (format) body.response_format = format.type === 'json_schema' ? { type: 'json_schema', json_schema: { name: format.name ?? 'response', schema: format.schema ?? {}, ...(format.strict !== undefined && { strict: format.strict }) } } : { type: format.type }
  encodeOpenAIExtras(request, body)
  // Ask for usage on streams that cross formats: the canonical finish carries it.
  if (request.stream && !body.stream_options) body.stream_options = { include_usage: true }
  return body
}
