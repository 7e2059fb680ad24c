import type { CanonicalRequest, ImagePart, Message, TextPart, ThinkingPart, ToolCallPart, ToolResultPart } from 'model-proxy'
import { openaiEffort } from 'model-proxy/internal'
import { contentFromParts, toolResultText } from './content.ts'

function encodeMessages(message: Message): Array<Record<string, unknown>> {
  if (message.role === 'tool') {
    // One chat tool message per result: the format has no multi-result turn.
    return message.parts.filter((part): part is ToolResultPart => part.type === 'tool_result')
      .map(part => ({ role: 'tool', tool_call_id: part.callId, content: toolResultText(part.content) }))
  }
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
  const rest = message.parts.filter((part): part is TextPart | ImagePart => part.type === 'text' || part.type === 'image')
  if (message.role === 'user' && results.length) {
    const tools = results.map(part => ({ role: 'tool', tool_call_id: part.callId, content: toolResultText(part.content) }))
    return rest.length ? [...tools, { role: 'user', content: contentFromParts(rest) }] : tools
  }
  return [out]
}

/** Canonical -> chat-completions body. */
export function encodeChatRequest(request: CanonicalRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { ...request.extensions?.chat, model: request.model, messages: request.messages.flatMap(encodeMessages) }
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
  // Only values the API accepts: `auto` (adaptive thinking) leaves the knob to the model's default.
  const effort = openaiEffort(request.reasoning)
  if (effort) body.reasoning_effort = effort
  const format = request.responseFormat
  if (format) body.response_format = format.type === 'json_schema' ? { type: 'json_schema', json_schema: { name: format.name ?? 'response', schema: format.schema ?? {}, ...(format.strict !== undefined && { strict: format.strict }) } } : { type: format.type }
  // Ask for usage on streams that cross formats: the canonical finish carries it.
  if (request.stream && !body.stream_options) body.stream_options = { include_usage: true }
  return body
}
