import { type CanonicalRequest, type Message, type Part, type ToolChoice, RequestValidationError } from 'model-proxy'
import { isRoleName } from 'model-proxy/kit/codec'
import { partsFromBlocks } from './blocks.ts'
import { decodeMessagesReasoning, efforts } from './reasoning.ts'
import { isWebSearchTool, webSearchFromTool } from './web-search.ts'
import { checkCountTokensBody } from './count-tokens-body.ts'

type Raw = Record<string, any>
const known = new Set(['model', 'messages', 'system', 'max_tokens', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'stream', 'tools', 'tool_choice', 'thinking', 'metadata', 'output_config', 'output_format'])
/** What a custom tool definition holds that canonical tools keep; other keys (`defer_loading`, `cache_control`...) are unmapped. */
const toolKeys = new Set(['type', 'name', 'description', 'input_schema', 'strict'])
/** A web search tool's keys the canonical search carries; any other (`cache_control`, a newer option) is named. */
const searchKeys = new Set(['type', 'name', 'max_uses', 'allowed_domains', 'blocked_domains', 'user_location'])
const thinkingKeys = new Set(['type', 'budget_tokens', 'display'])
const choiceKeys = new Set(['type', 'name', 'disable_parallel_tool_use'])
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

/** The text of a system prompt: a string or text blocks (their `cache_control` marks are noted). */
function systemText(value: unknown, unmapped: Set<string>): string {
  if (typeof value === 'string') return value
  if (!Array.isArray(value)) return ''
  return partsFromBlocks(value, unmapped).map(part => part.type === 'text' ? part.text : '').filter(Boolean).join('\n')
}

/**
 * `messages[]`: user and assistant turns, and `system` messages where the client put them (the format
 * allows system instructions mid-conversation). A role the decoder does not know is skipped and named:
 * the same-format path sends the body as it came, so only other formats lose it.
 */
function decodeTurns(list: unknown[], unmapped: Set<string>): Message[] {
  const messages: Message[] = []
  list.forEach((message: unknown, i: number) => {
    const m = obj(message)
    if (!m || typeof m.role !== 'string') throw new RequestValidationError(`messages.${i}.role: Field required`, `messages[${i}].role`)
    if (!isRoleName(m.role)) throw new RequestValidationError(`messages.${i}.role: Input should be 'user' or 'assistant'`, `messages[${i}].role`)
    if (m.role === 'system' || m.role === 'user' || m.role === 'assistant') for (const key of Object.keys(m)) if (key !== 'role' && key !== 'content') unmapped.add(`messages.${key}`)
    if (m.role === 'system') {
      const text = systemText(m.content, unmapped)
      if (text) messages.push({ role: 'system', parts: [{ type: 'text', text }] })
    } else if (m.role === 'user' || m.role === 'assistant') {
      messages.push(...splitTurn(m.role, partsFromBlocks(m.content, unmapped)))
    } else {
      unmapped.add(`role:${m.role}`)
    }
  })
  return messages
}

function decodeTools(tools: Raw[], request: CanonicalRequest, unmapped: Set<string>): void {
  const custom = tools.filter(tool => tool && (tool.type === undefined || tool.type === 'custom') && typeof tool.name === 'string')
  request.tools = custom.map(tool => ({ name: tool.name, ...(typeof tool.description === 'string' && { description: tool.description }), ...(obj(tool.input_schema) && { parameters: tool.input_schema }), ...(typeof tool.strict === 'boolean' && { strict: tool.strict }) }))
  for (const tool of tools) {
    if (!tool || typeof tool !== 'object') continue
    if (isWebSearchTool(tool)) {
      request.webSearch = webSearchFromTool(tool)
      for (const key of Object.keys(tool)) if (!searchKeys.has(key)) unmapped.add(`tool:web_search.${key}`)
    }
    else if (tool.type !== undefined && tool.type !== 'custom') unmapped.add(`tool:${String(tool.type)}`)
    else for (const key of Object.keys(tool)) if (!toolKeys.has(key)) unmapped.add(`tools.${key}`)
  }
}

/** Shared by `/v1/messages` and count_tokens (which has no max_tokens). */
export function decodeMessagesBody(body: unknown, requireMaxTokens: boolean): CanonicalRequest {
  const raw = obj(body)
  if (!raw) throw new RequestValidationError('request body must be a JSON object')
  if (typeof raw.model !== 'string' || !raw.model) throw new RequestValidationError('model: Field required', 'model')
  if (!Array.isArray(raw.messages)) throw new RequestValidationError('messages: Field required (an array)', 'messages')
  // 0 is the API's cache pre-warm: the prompt is cached and nothing is generated.
  if (requireMaxTokens && (!Number.isInteger(raw.max_tokens) || raw.max_tokens < 0)) throw new RequestValidationError('max_tokens: must be a non-negative integer', 'max_tokens')
  range(raw, 'temperature', 0, 2)
  range(raw, 'top_p', 0, 1)
  const unmapped = new Set<string>()
  const messages: Message[] = []
  const system = systemText(raw.system, unmapped)
  if (system) messages.push({ role: 'system', parts: [{ type: 'text', text: system }] })
  messages.push(...decodeTurns(raw.messages, unmapped))
  const request: CanonicalRequest = { model: raw.model, messages, stream: raw.stream === true }
  if (typeof raw.max_tokens === 'number') request.maxTokens = raw.max_tokens
  if (typeof raw.temperature === 'number') request.temperature = raw.temperature
  if (typeof raw.top_p === 'number') request.topP = raw.top_p
  if (typeof raw.top_k === 'number') request.topK = raw.top_k
  if (Array.isArray(raw.stop_sequences)) request.stop = raw.stop_sequences.filter((s: unknown) => typeof s === 'string')
  if (Array.isArray(raw.tools)) decodeTools(raw.tools, request, unmapped)
  const choice = obj(raw.tool_choice)
  const toolChoice = decodeToolChoice(choice)
  if (toolChoice) request.toolChoice = toolChoice
  else if (choice) unmapped.add('tool_choice')
  if (choice?.disable_parallel_tool_use === true) request.parallelToolCalls = false
  if (toolChoice) for (const key of Object.keys(choice!)) if (!choiceKeys.has(key)) unmapped.add(`tool_choice.${key}`)
  const outputConfig = obj(raw.output_config)
  const reasoning = decodeMessagesReasoning(obj(raw.thinking), outputConfig)
  if (reasoning) request.reasoning = reasoning
  if (raw.thinking !== undefined && !['enabled', 'disabled', 'adaptive'].includes(obj(raw.thinking)?.type)) unmapped.add('thinking')
  else for (const key of Object.keys(obj(raw.thinking) ?? {})) if (!thinkingKeys.has(key)) unmapped.add(`thinking.${key}`)
  // Shown (summarized) or omitted thought text is what other formats have; another display is not.
  const display = obj(raw.thinking)?.display
  if (display !== undefined && display !== 'summarized' && display !== 'omitted') unmapped.add('thinking.display')
  if (outputConfig?.effort !== undefined && !efforts.has(outputConfig.effort)) unmapped.add('output_config.effort')
  // `output_format` is the structured-outputs beta's name for what is now `output_config.format`.
  const format = obj(outputConfig?.format) ?? obj(raw.output_format)
  if (format?.type === 'json_schema' && obj(format.schema)) {
    request.responseFormat = { type: 'json_schema', schema: format.schema }
    for (const key of Object.keys(format)) if (key !== 'type' && key !== 'schema') unmapped.add(obj(outputConfig?.format) ? `output_config.format.${key}` : `output_format.${key}`)
  } else if (raw.output_format !== undefined) unmapped.add('output_format')
  else if (outputConfig?.format !== undefined) unmapped.add('output_config.format')
  for (const key of Object.keys(outputConfig ?? {})) if (key !== 'effort' && key !== 'format') unmapped.add(`output_config.${key}`)
  if (typeof raw.metadata?.user_id === 'string') request.user = raw.metadata.user_id
  const extra: Raw = {}
  for (const key of Object.keys(raw)) {
    if (known.has(key) || key === '__proto__') continue
    extra[key] = raw[key]
    unmapped.add(key)
  }
  if (Array.isArray(raw.tools) && raw.tools.some((tool: Raw) => tool?.type && tool.type !== 'custom')) extra.tools = raw.tools
  if (Array.isArray(raw.system)) extra.system = raw.system
  if (outputConfig) extra.output_config = outputConfig
  if (raw.metadata && Object.keys(raw.metadata).some(k => k !== 'user_id')) {
    extra.metadata = raw.metadata
    unmapped.add('metadata')
  }
  if (Object.keys(extra).length) request.extensions = { messages: extra }
  if (unmapped.size) request.unmapped = [...unmapped]
  return request
}

export const decodeMessagesRequest = (body: unknown) => decodeMessagesBody(body, true)
/** count_tokens is answered here: what the decoder lets pass for an upstream to judge is judged as the vendor would. */
export function decodeCountTokens(body: unknown): CanonicalRequest {
  const request = decodeMessagesBody(body, false)
  checkCountTokensBody(body as Record<string, unknown>)
  return request
}
