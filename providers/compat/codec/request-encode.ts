import type { CanonicalRequest, ImagePart, Message, ThinkingPart, ToolCallPart, ToolResultPart } from 'model-proxy'
import { chatSearchModel, chatSearchOptions, openaiEffort } from 'model-proxy/kit/codec'
import { contentFromParts, imageUrlPart, toolResultText } from './content.ts'

type Wire = Record<string, unknown>

/**
 * One chat tool message per result (the format has no multi-result turn). Tool messages hold text only:
 * images a tool returned go to `images`, sent in a user message after the run of tool messages.
 */
function toolMessages(results: ToolResultPart[], images: ImagePart[]): Wire[] {
  return results.map(part => {
    if (typeof part.content !== 'string') for (const piece of part.content) if (piece.type === 'image') images.push(piece)
    return { role: 'tool', tool_call_id: part.callId, content: toolResultText(part.content) }
  })
}

const imagesMessage = (images: ImagePart[]): Wire => ({ role: 'user', content: images.map(imageUrlPart) })

/** The chat messages, with tool results' images in one user message right after the tool messages they came with. */
function encodeChatMessages(messages: Message[]): Wire[] {
  const out: Wire[] = []
  const images: ImagePart[] = []
  for (const message of messages) {
    // A message's own tool images are held before its wire messages, which open with its tool messages.
    for (const wire of encodeMessages(message, images)) {
      if (wire.role !== 'tool' && images.length) out.push(imagesMessage(images.splice(0)))
      out.push(wire)
    }
  }
  if (images.length) out.push(imagesMessage(images))
  return out
}

function encodeMessages(message: Message, images: ImagePart[]): Wire[] {
  if (message.role === 'tool') return toolMessages(message.parts.filter((part): part is ToolResultPart => part.type === 'tool_result'), images)
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
    const tools = toolMessages(results, images)
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
  const body: Record<string, unknown> = { ...request.extensions?.chat, model: request.model, messages: encodeChatMessages(request.messages) }
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
    // `strict` only when asked: false is the format's default, and some compatible servers refuse the key.
    body.tools = request.tools.map(tool => ({ type: 'function', function: { name: tool.name, ...(tool.description !== undefined && { description: tool.description }), parameters: tool.parameters ?? { type: 'object', properties: {} }, ...(tool.strict && { strict: true }) } }))
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
