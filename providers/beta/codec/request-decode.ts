import type { CanonicalRequest, Message, Part, ToolChoice } from '../../../core/canonical/types.ts'
import { RequestValidationError } from '../../../core/canonical/errors.ts'
import { partsFromBlocks } from './blocks.ts'

type Raw = Record<string, any>
const known = new Set(['model', 'messages', 'system', 'max_tokens', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'stream', 'tools', 'tool_choice', 'thinking', 'metadata'])
const obj = (value: unknown) => value && typeof value === 'object' && !Array.isArray(value) ? value as Raw : undefined

function range(raw: Raw, field: string, min: number, max: number) {
  const value = raw[field]
  if (value !== undefined && (typeof value !== 'number' || value < min || value > max)) throw new RequestValidationError(`${field}: must be a number between ${min} and ${max}`, field)
}

/** A user turn mixing tool_result and other blocks becomes a tool message, then a user message. */
function splitTurn(role: 'user' | 'assistant', parts: Part[]): Message[] {
  if (role === 'assistant') return [{ role, parts }]
  const results = parts.filter(part => part.type === 'tool_result')
  if (!results.length) return [{ role, parts }]
  const rest = parts.filter(part => part.type !== 'tool_result')
  return rest.length ? [{ role: 'tool', parts: results }, { role, parts: rest }] : [{ role: 'tool', parts: results }]
}

function decodeToolChoice(raw: Raw | undefined): ToolChoice | undefined {
  if (!raw) return undefined
  if (raw.type === 'auto') return 'auto'
  if (raw.type === 'any') return 'required'
  if (raw.type === 'none') return 'none'
  if (raw.type === 'tool' && typeof raw.name === 'string') return { name: raw.name }
  return undefined
}

/** Shared by `/v1/messages` and count_tokens (which has no max_tokens). */
export function decodeMessagesBody(body: unknown, requireMaxTokens: boolean): CanonicalRequest {
  const raw = obj(body)
  if (!raw) throw new RequestValidationError('request body must be a JSON object')
  if (typeof raw.model !== 'string' || !raw.model) throw new RequestValidationError('model: Field required', 'model')
  if (!Array.isArray(raw.messages)) throw new RequestValidationError('messages: Field required (an array)', 'messages')
  if (requireMaxTokens && (!Number.isInteger(raw.max_tokens) || raw.max_tokens < 1)) throw new RequestValidationError('max_tokens: must be a positive integer', 'max_tokens')
  range(raw, 'temperature', 0, 2)
  range(raw, 'top_p', 0, 1)
  const messages: Message[] = []
  const system = typeof raw.system === 'string' ? raw.system : Array.isArray(raw.system) ? raw.system.map((b: Raw) => b?.text ?? '').join('\n') : ''
  if (system) messages.push({ role: 'system', parts: [{ type: 'text', text: system }] })
  raw.messages.forEach((message: unknown, i: number) => {
    const m = obj(message)
    if (!m || (m.role !== 'user' && m.role !== 'assistant')) throw new RequestValidationError(`messages.${i}.role: must be user or assistant`, `messages[${i}].role`)
    messages.push(...splitTurn(m.role, partsFromBlocks(m.content)))
  })
  const request: CanonicalRequest = { model: raw.model, messages, stream: raw.stream === true }
  if (typeof raw.max_tokens === 'number') request.maxTokens = raw.max_tokens
  if (typeof raw.temperature === 'number') request.temperature = raw.temperature
  if (typeof raw.top_p === 'number') request.topP = raw.top_p
  if (typeof raw.top_k === 'number') request.topK = raw.top_k
  if (Array.isArray(raw.stop_sequences)) request.stop = raw.stop_sequences.filter((s: unknown) => typeof s === 'string')
  if (Array.isArray(raw.tools)) {
    const custom = raw.tools.filter((tool: Raw) => tool && (tool.type === undefined || tool.type === 'custom') && typeof tool.name === 'string')
    request.tools = custom.map((tool: Raw) => ({ name: tool.name, ...(typeof tool.description === 'string' && { description: tool.description }), ...(obj(tool.input_schema) && { parameters: tool.input_schema }) }))
  }
  const choice = obj(raw.tool_choice)
  const toolChoice = decodeToolChoice(choice)
  if (toolChoice) request.toolChoice = toolChoice
  if (choice?.disable_parallel_tool_use === true) request.parallelToolCalls = false
  const thinking = obj(raw.thinking)
  if (thinking?.type === 'enabled') request.reasoning = { budgetTokens: Number(thinking.budget_tokens) || 1024, includeThoughts: true }
  else if (thinking?.type === 'disabled') request.reasoning = { budgetTokens: 0 }
  else if (thinking?.type === 'adaptive') request.reasoning = { effort: 'auto', includeThoughts: true }
  if (typeof raw.metadata?.user_id === 'string') request.user = raw.metadata.user_id
  const extra: Raw = {}
  for (const key in raw) if (!known.has(key)) extra[key] = raw[key]
  if (Array.isArray(raw.tools) && raw.tools.some((tool: Raw) => tool?.type && tool.type !== 'custom')) extra.tools = raw.tools
  if (Array.isArray(raw.system)) extra.system = raw.system
  if (raw.metadata && Object.keys(raw.metadata).some(k => k !== 'user_id')) extra.metadata = raw.metadata
  if (Object.keys(extra).length) request.extensions = { messages: extra }
  return request
}

export const decodeMessagesRequest = (body: unknown) => decodeMessagesBody(body, true)
export const decodeCountTokens = (body: unknown) => decodeMessagesBody(body, false)
