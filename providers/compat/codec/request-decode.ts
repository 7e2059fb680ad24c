import { type CanonicalRequest, type ImagePart, type Message, type Part, type TextPart, type ToolChoice, type ToolDef, type ReasoningEffort, RequestValidationError } from 'model-proxy'
import { validateChatRequest } from '../validate-chat.ts'
import { partsFromContent } from './content.ts'
import { webSearchFromOptions } from './web-search-options.ts'

/** Fields the canonical request models; everything else rides in `extensions.chat`. */
const known = new Set(['model', 'messages', 'stream', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'presence_penalty', 'frequency_penalty', 'seed', 'n', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning_effort', 'response_format', 'user', 'prompt_cache_key', 'safety_identifier', 'verbosity', 'store', 'web_search_options'])
/** Unknown fields whose effect every format has anyway: usage is always reported on a translated stream. */
const noLoss = new Set(['stream_options'])
const roles = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function'])
const efforts = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'auto'])

/**
 * Keys of a message, a tool call and a tool that the canonical form carries. `annotations` are the
 * citations of an answer replayed: its text goes on. Any other key (`cache_control`, a server's own) is
 * named for other formats.
 */
const messageKeys = new Set(['role', 'content', 'name', 'tool_call_id', 'tool_calls', 'reasoning_content', 'reasoning', 'refusal', 'annotations'])
const callKeys = new Set(['id', 'type', 'function', 'index'])
const toolKeys = new Set(['type', 'function'])
const functionKeys = new Set(['name', 'description', 'parameters', 'strict'])

/** Keys of `value` outside `known`, named `<prefix><key>` in `unmapped`. */
function nameUnknown(value: unknown, known: ReadonlySet<string>, prefix: string, unmapped: Set<string>): void {
  for (const key of Object.keys(obj(value) ?? {})) if (!known.has(key)) unmapped.add(`${prefix}${key}`)
}

const num = (value: unknown) => typeof value === 'number' && Number.isFinite(value) ? value : undefined
const obj = (value: unknown) => value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : undefined

/** `skipped`: ids of calls of a kind other formats have no form for (`custom`): their results go with them. */
function decodeMessage(raw: Record<string, unknown>, index: number, unmapped: Set<string>, skipped: Set<string>): Message[] {
  // A role this format does not define (some compatible servers have their own) passes through on the
  // same-format path; other formats have no place for it.
  if (!roles.has(raw.role as string)) {
    unmapped.add(`role:${String(raw.role)}`)
    return []
  }
  const role = raw.role === 'developer' ? 'system' : raw.role as Message['role'] | 'function'
  nameUnknown(raw, messageKeys, 'messages.', unmapped)
  if (role === 'tool' || role === 'function') {
    const callId = typeof raw.tool_call_id === 'string' ? raw.tool_call_id : typeof raw.name === 'string' ? raw.name : ''
    if (skipped.has(callId)) return []
    const parts = partsFromContent(raw.content, unmapped).filter(part => part.type !== 'file') as Array<TextPart | ImagePart>
    const content = typeof raw.content === 'string' ? raw.content : parts
    return [{ role: 'tool', parts: [{ type: 'tool_result', callId, content, ...(typeof raw.name === 'string' && { name: raw.name }) }] }]
  }
  const parts: Part[] = []
  if (role === 'assistant') {
    const reasoning = raw.reasoning_content ?? raw.reasoning
    if (typeof reasoning === 'string' && reasoning) parts.push({ type: 'thinking', text: reasoning })
  }
  parts.push(...partsFromContent(raw.content, unmapped))
  // An assistant turn's refusal replayed: the refusal part every format has.
  if (role === 'assistant' && typeof raw.refusal === 'string' && raw.refusal) parts.push({ type: 'text', text: raw.refusal, refusal: true })
  if (role === 'assistant' && Array.isArray(raw.tool_calls)) {
    raw.tool_calls.forEach((call, i) => {
      // A custom tool's call (free-form input, GPT-5) is valid here; other formats have no such call.
      const type = obj(call)?.type
      if (type !== undefined && type !== 'function') {
        unmapped.add(`tool_calls:${String(type)}`)
        skipped.add(String(obj(call)?.id))
        return
      }
      const fn = obj(obj(call)?.function)
      if (!fn || typeof fn.name !== 'string') throw new RequestValidationError(`messages[${index}].tool_calls[${i}].function.name must be a string`, `messages[${index}].tool_calls[${i}]`)
      nameUnknown(call, callKeys, 'tool_calls.', unmapped)
      nameUnknown(fn, new Set(['name', 'arguments']), 'tool_calls.function.', unmapped)
      const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {})
      parts.push({ type: 'tool_call', id: String(obj(call)!.id ?? `call_${index}_${i}`), name: fn.name, arguments: args })
    })
  }
  const message: Message = { role, parts }
  if (typeof raw.name === 'string') message.name = raw.name
  return [message]
}

function decodeToolChoice(raw: unknown): ToolChoice | undefined {
  if (raw === 'none' || raw === 'auto' || raw === 'required') return raw
  // Another type beside a `function` (a newer choice) is not a forced call: named as the whole choice.
  const type = obj(raw)?.type
  if (type !== undefined && type !== 'function') return undefined
  const name = obj(obj(raw)?.function)?.name
  return typeof name === 'string' ? { name } : undefined
}

const verbosities = new Set(['low', 'medium', 'high'])

/** Fields the chat and responses formats share (responses nests verbosity in `text`). */
function decodeOpenAIExtras(raw: Record<string, unknown>, request: CanonicalRequest): void {
  if (typeof raw.prompt_cache_key === 'string') request.promptCacheKey = raw.prompt_cache_key
  if (typeof raw.safety_identifier === 'string') request.safetyIdentifier = raw.safety_identifier
  if (typeof raw.verbosity === 'string' && verbosities.has(raw.verbosity)) request.verbosity = raw.verbosity as CanonicalRequest['verbosity']
  if (typeof raw.store === 'boolean') request.store = raw.store
}

/** A chat-completions body -> canonical. Throws RequestValidationError (400) and nothing else. */
export function decodeChatRequest(body: unknown): CanonicalRequest {
  const raw = obj(body)
  if (!raw) throw new RequestValidationError('request body must be a JSON object')
  if (typeof raw.model !== 'string' || !raw.model) throw new RequestValidationError('you must provide a model parameter', 'model')
  validateChatRequest(raw)
  const unmapped = new Set<string>()
  const skipped = new Set<string>()
  const messages = (raw.messages as Array<Record<string, unknown>>).flatMap((message, i) => decodeMessage(message, i, unmapped, skipped))
  const request: CanonicalRequest = { model: raw.model, messages, stream: raw.stream === true }
  const maxTokens = num(raw.max_completion_tokens) ?? num(raw.max_tokens)
  if (maxTokens !== undefined) request.maxTokens = maxTokens
  if (num(raw.temperature) !== undefined) request.temperature = raw.temperature as number
  if (num(raw.top_p) !== undefined) request.topP = raw.top_p as number
  // Not OpenAI's, but compatible servers (vLLM, OpenRouter) take it and their clients send it: messages and generateContent have it.
  if (num(raw.top_k) !== undefined) request.topK = raw.top_k as number
  if (raw.stop !== undefined && raw.stop !== null) request.stop = typeof raw.stop === 'string' ? [raw.stop] : raw.stop as string[]
  if (num(raw.presence_penalty) !== undefined) request.presencePenalty = raw.presence_penalty as number
  if (num(raw.frequency_penalty) !== undefined) request.frequencyPenalty = raw.frequency_penalty as number
  if (num(raw.seed) !== undefined) request.seed = raw.seed as number
  if (num(raw.n) !== undefined) request.n = raw.n as number
  if (typeof raw.user === 'string') request.user = raw.user
  if (Array.isArray(raw.tools)) {
    request.tools = raw.tools.flatMap((tool): ToolDef[] => {
      if (tool.type !== 'function') {
        unmapped.add(`tool:${String(tool.type)}`)
        return []
      }
      const fn = obj((tool as Record<string, unknown>).function)!
      nameUnknown(tool, toolKeys, 'tools.', unmapped)
      nameUnknown(fn, functionKeys, 'tools.function.', unmapped)
      return [{ name: fn.name as string, ...(typeof fn.description === 'string' && { description: fn.description }), ...(obj(fn.parameters) && { parameters: fn.parameters as Record<string, unknown> }), ...(typeof fn.strict === 'boolean' && { strict: fn.strict }) }]
    })
  }
  const toolChoice = decodeToolChoice(raw.tool_choice)
  if (toolChoice && typeof toolChoice === 'object') {
    nameUnknown(raw.tool_choice, toolKeys, 'tool_choice.', unmapped)
    nameUnknown(obj(raw.tool_choice)!.function, new Set(['name']), 'tool_choice.function.', unmapped)
  }
  if (toolChoice) request.toolChoice = toolChoice
  // `allowed_tools`, `custom`: no canonical form; a chat upstream gets it as it came, others lose it (named).
  else if (raw.tool_choice !== undefined && raw.tool_choice !== null) unmapped.add('tool_choice')
  if (typeof raw.parallel_tool_calls === 'boolean') request.parallelToolCalls = raw.parallel_tool_calls
  if (typeof raw.reasoning_effort === 'string') {
    if (!efforts.has(raw.reasoning_effort)) throw new RequestValidationError('reasoning_effort must be one of none, minimal, low, medium, high, xhigh, max, auto', 'reasoning_effort')
    request.reasoning = { effort: raw.reasoning_effort as ReasoningEffort }
  }
  const format = obj(raw.response_format)
  if (format && (format.type === 'text' || format.type === 'json_object' || format.type === 'json_schema')) {
    const schema = obj(format.json_schema)
    request.responseFormat = { type: format.type, ...(schema && { name: schema.name as string, schema: schema.schema as Record<string, unknown>, strict: schema.strict as boolean }) }
    // `description` and newer keys: the canonical format has no place for them.
    nameUnknown(format, new Set(['type', 'json_schema']), 'response_format.', unmapped)
    nameUnknown(schema, new Set(['name', 'schema', 'strict']), 'response_format.json_schema.', unmapped)
  } else if (format) unmapped.add('response_format')
  decodeOpenAIExtras(raw, request)
  const search = obj(raw.web_search_options)
  if (search) request.webSearch = webSearchFromOptions(search)
  const extra: Record<string, unknown> = {}
  if (!toolChoice && unmapped.has('tool_choice')) extra.tool_choice = raw.tool_choice
  // `include_usage` is answered anyway and a translated stream has no obfuscation padding; a newer option is named.
  for (const key of Object.keys(obj(raw.stream_options) ?? {})) if (key !== 'include_usage' && key !== 'include_obfuscation') unmapped.add(`stream_options.${key}`)
  for (const key of Object.keys(raw)) {
    if (known.has(key) || key === '__proto__') continue
    extra[key] = raw[key]
    if (!noLoss.has(key)) unmapped.add(key)
  }
  if (Object.keys(extra).length) request.extensions = { chat: extra }
  if (unmapped.size) request.unmapped = [...unmapped]
  return request
}
