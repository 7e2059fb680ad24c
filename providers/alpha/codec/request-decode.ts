import { type CanonicalRequest, type Message, type ReasoningEffort, RequestValidationError } from 'model-proxy'
import { isRoleName } from 'model-proxy/kit/codec'
import { CallLedger, partsFromGenerate } from './parts.ts'
import { schemaFromGemini } from './schema.ts'
import { decodeToolConfig, decodeTools } from './tools-decode.ts'

type Raw = Record<string, any>
const obj = (value: unknown) => value && typeof value === 'object' && !Array.isArray(value) ? value as Raw : undefined
/** The REST API accepts snake_case too: read either spelling. */
const pick = (raw: Raw | undefined, camel: string, snake: string) => raw?.[camel] ?? raw?.[snake]
/** Keys of `value` outside `known`, named `<prefix><key>`: a newer API's field other formats cannot carry. */
function nameUnknown(value: unknown, known: ReadonlySet<string>, prefix: string, unmapped: Set<string>): void {
  for (const key of Object.keys(obj(value) ?? {})) if (!known.has(key)) unmapped.add(`${prefix}${key}`)
}
const known = new Set(['model', 'contents', 'systemInstruction', 'system_instruction', 'tools', 'toolConfig', 'tool_config', 'generationConfig', 'generation_config'])
const knownConfig = new Set(['maxOutputTokens', 'temperature', 'topP', 'topK', 'stopSequences', 'candidateCount', 'seed', 'presencePenalty', 'frequencyPenalty', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'thinkingConfig'])

/** `thinkingConfig.thinkingLevel` values (the ThinkingLevel enum), each the canonical effort of the same name. */
const levels: ReadonlySet<string> = new Set(['MINIMAL', 'LOW', 'MEDIUM', 'HIGH', 'XHIGH'])

function range(config: Raw, field: string, min: number, max: number) {
  const value = config[field]
  if (value !== undefined && (typeof value !== 'number' || value < min || value > max)) throw new RequestValidationError(`generationConfig.${field} must be a number between ${min} and ${max}`, `generationConfig.${field}`)
}

/**
 * A generateContent body -> canonical. The model travels in the URL: the route copies it into
 * `body.model` before decoding. Throws RequestValidationError (400) and nothing else.
 */
export function decodeGenerateRequest(body: unknown): CanonicalRequest {
  const raw = obj(body)
  if (!raw) throw new RequestValidationError('request body must be a JSON object')
  if (typeof raw.model !== 'string' || !raw.model) throw new RequestValidationError('model is required', 'model')
  if (!Array.isArray(raw.contents)) throw new RequestValidationError('contents must be an array', 'contents')
  const ledger = new CallLedger()
  const unmapped = new Set<string>()
  const messages: Message[] = []
  const system = obj(pick(raw, 'systemInstruction', 'system_instruction'))
  const systemText = Array.isArray(system?.parts) ? system.parts.map((p: Raw) => p?.text ?? '').join('\n') : typeof system === 'string' ? system : ''
  // System instructions are text in every other format: what else they hold is named.
  nameUnknown(system, new Set(['parts', 'role']), 'systemInstruction.', unmapped)
  if (Array.isArray(system?.parts)) for (const part of system.parts) nameUnknown(part, new Set(['text']), 'systemInstruction.parts.', unmapped)
  if (systemText) messages.push({ role: 'system', parts: [{ type: 'text', text: systemText }] })
  raw.contents.forEach((content: unknown, i: number) => {
    const c = obj(content)
    // An empty role is an unset one (the API's default: user).
    const role = c?.role || 'user'
    if (!c || !isRoleName(role)) throw new RequestValidationError(`contents[${i}].role must be user or model`, `contents[${i}].role`)
    // A role this decoder does not know passes untouched on the same-format path; other formats lose it.
    if (role !== 'user' && role !== 'model' && role !== 'function') {
      unmapped.add(`role:${role}`)
      return
    }
    nameUnknown(c, new Set(['role', 'parts']), 'contents.', unmapped)
    const parts = partsFromGenerate(c.parts, ledger, unmapped)
    const results = parts.filter(part => part.type === 'tool_result')
    const rest = parts.filter(part => part.type !== 'tool_result')
    if (results.length) messages.push({ role: 'tool', parts: results })
    if (rest.length) messages.push({ role: role === 'model' ? 'assistant' : 'user', parts: rest })
  })
  const request: CanonicalRequest = { model: raw.model, messages, stream: false }
  const config = obj(pick(raw, 'generationConfig', 'generation_config')) ?? {}
  range(config, 'temperature', 0, 2)
  range(config, 'presencePenalty', -2, 2)
  range(config, 'frequencyPenalty', -2, 2)
  if (typeof config.maxOutputTokens === 'number') request.maxTokens = config.maxOutputTokens
  if (typeof config.temperature === 'number') request.temperature = config.temperature
  if (typeof config.topP === 'number') request.topP = config.topP
  if (typeof config.topK === 'number') request.topK = config.topK
  if (Array.isArray(config.stopSequences)) {
    if (config.stopSequences.length > 5) throw new RequestValidationError('generationConfig.stopSequences allows at most 5 sequences', 'generationConfig.stopSequences')
    request.stop = config.stopSequences
  }
  if (typeof config.candidateCount === 'number') request.n = config.candidateCount
  if (typeof config.seed === 'number') request.seed = config.seed
  if (typeof config.presencePenalty === 'number') request.presencePenalty = config.presencePenalty
  if (typeof config.frequencyPenalty === 'number') request.frequencyPenalty = config.frequencyPenalty
  // `responseSchema` is the vendor's OpenAPI subset; other formats take JSON Schema.
  const schema = obj(config.responseJsonSchema) ?? (obj(config.responseSchema) && schemaFromGemini(config.responseSchema))
  if (config.responseMimeType === 'application/json') request.responseFormat = schema ? { type: 'json_schema', schema } : { type: 'json_object' }
  // Another answer type (`text/x.enum` with its schema of values) has no form elsewhere: named, not lost unseen.
  else if (config.responseMimeType !== undefined && config.responseMimeType !== 'text/plain') unmapped.add('generationConfig.responseMimeType')
  const thinking = obj(config.thinkingConfig)
  if (thinking) {
    request.reasoning = {}
    if (typeof thinking.thinkingBudget === 'number') request.reasoning.budgetTokens = thinking.thinkingBudget
    const level = typeof thinking.thinkingLevel === 'string' ? thinking.thinkingLevel.toUpperCase() : undefined
    if (level && levels.has(level)) request.reasoning.effort = level.toLowerCase() as ReasoningEffort
    // A level of a later API version means nothing to other formats (and would be sent on as an effort they refuse).
    else if (level && level !== 'THINKING_LEVEL_UNSPECIFIED') unmapped.add('generationConfig.thinkingConfig.thinkingLevel')
    if (typeof thinking.includeThoughts === 'boolean') request.reasoning.includeThoughts = thinking.includeThoughts
    nameUnknown(thinking, new Set(['thinkingBudget', 'thinkingLevel', 'includeThoughts']), 'generationConfig.thinkingConfig.', unmapped)
  }
  const decoded = decodeTools(raw.tools, unmapped)
  if (decoded.tools.length) request.tools = decoded.tools
  if (decoded.webSearch) request.webSearch = decoded.webSearch
  const toolChoice = decodeToolConfig(obj(pick(raw, 'toolConfig', 'tool_config')), unmapped)
  if (toolChoice) request.toolChoice = toolChoice
  const extra: Raw = {}
  for (const key of Object.keys(raw)) {
    if (known.has(key) || key === '__proto__') continue
    extra[key] = raw[key]
    unmapped.add(key)
  }
  const extraConfig: Raw = {}
  for (const key of Object.keys(config)) {
    if (knownConfig.has(key) || key === '__proto__') continue
    extraConfig[key] = config[key]
    unmapped.add(`generationConfig.${key}`)
  }
  if (Object.keys(extraConfig).length) extra.generationConfig = extraConfig
  if (decoded.other.length) extra.tools = decoded.other
  if (Object.keys(extra).length) request.extensions = { generate: extra }
  if (unmapped.size) request.unmapped = [...unmapped]
  return request
}
