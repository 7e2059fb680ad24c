import type { CanonicalRequest, Message } from 'model-proxy'
import { messagesBudget, messagesDefaults } from 'model-proxy/kit/codec'
import { blocksFromParts } from './blocks.ts'
import { webSearchToTool } from './web-search.ts'

/** max_tokens is required by the format; this is what we send when the client gave none. */
export const defaultMaxTokens = messagesDefaults.maxTokens

type Raw = Record<string, any>

const textOf = (message: Message) => message.parts.map(part => part.type === 'text' ? part.text : '').filter(Boolean).join('\n\n')

/**
 * Canonical messages -> alternating user/assistant turns (tool results ride in user turns). System
 * messages after the conversation started stay where they are, as `system` turns (the format's own
 * mid-conversation instructions); the leading ones go to the top-level `system` field.
 */
function encodeTurns(messages: Message[]): { system: string[]; turns: Raw[] } {
  const system: string[] = []
  const turns: Raw[] = []
  for (const message of messages) {
    if (message.role === 'system') {
      const text = textOf(message)
      if (!text) continue
      if (turns.length) turns.push({ role: 'system', content: text })
      else system.push(text)
      continue
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user'
    const blocks = blocksFromParts(message.parts, 'upstream')
    if (!blocks.length) continue
    const last = turns.at(-1)
    if (last?.role === role) last.content.push(...blocks)
    else turns.push({ role, content: blocks })
  }
  // The format wants tool_result blocks first in their user turn.
  for (const turn of turns) if (turn.role === 'user') turn.content.sort((a: Raw, b: Raw) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'))
  return { system, turns }
}

/** Canonical -> messages body. */
export function encodeMessagesRequest(request: CanonicalRequest): Record<string, unknown> {
  const extra = request.extensions?.messages ?? {}
  const { system, turns } = encodeTurns(request.messages)
  const body: Raw = { ...extra, model: request.model, messages: turns, max_tokens: request.maxTokens ?? defaultMaxTokens }
  if (extra.system) body.system = extra.system
  else if (system.length) body.system = system.join('\n\n')
  if (request.stream) body.stream = true
  if (request.temperature !== undefined) body.temperature = Math.min(request.temperature, 1)
  if (request.topP !== undefined) body.top_p = request.topP
  if (request.topK !== undefined) body.top_k = request.topK
  if (request.stop?.length) body.stop_sequences = request.stop
  if (request.tools?.length && !extra.tools) body.tools = request.tools.map(tool => ({ name: tool.name, ...(tool.description !== undefined && { description: tool.description }), input_schema: tool.parameters ?? { type: 'object', properties: {} } }))
  if (request.webSearch && !extra.tools) body.tools = [...body.tools ?? [], webSearchToTool(request.webSearch)]
  // Structured output: JSON by schema only (the API has no schema-less JSON mode).
  const format = request.responseFormat
  if (format?.type === 'json_schema' && format.schema) body.output_config = { ...(extra.output_config as Raw | undefined), format: { type: 'json_schema', schema: format.schema } }
  const choice = request.toolChoice
  if (choice === 'none') body.tool_choice = { type: 'none' }
  else if (choice === 'required') body.tool_choice = { type: 'any' }
  else if (choice === 'auto') body.tool_choice = { type: 'auto' }
  else if (choice) body.tool_choice = { type: 'tool', name: choice.name }
  if (request.parallelToolCalls === false) body.tool_choice = { ...(body.tool_choice ?? { type: 'auto' }), disable_parallel_tool_use: true }
  // The pipeline fits the request to the API's thinking rules first (core/canonical/request-rules.ts);
  // these guards keep a direct encode valid too.
  const budget = messagesBudget(request.reasoning)
  if (budget) {
    if (body.max_tokens <= budget) body.max_tokens = budget + (request.maxTokens ?? defaultMaxTokens)
    body.thinking = { type: 'enabled', budget_tokens: budget }
    if (body.temperature !== 1) delete body.temperature
    delete body.top_k
  } else if (budget === 0) {
    body.thinking = { type: 'disabled' }
  }
  if (request.user) body.metadata = { ...(extra.metadata ?? {}), user_id: request.user }
  return body
}
