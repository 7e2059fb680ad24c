import { RequestValidationError, type CanonicalRequest, type Message, type Part } from 'model-proxy'
import { argumentsObject, isObject, type OllamaMessage } from './wire.ts'

const textOf = (parts: Part[]) => parts.flatMap(part => part.type === 'text' ? [part.text] : []).join('')
const imagesOf = (parts: Part[]) => parts.flatMap(part => part.type === 'image' && part.data ? [part.data] : [])

/** One canonical message as Ollama messages: every tool result is a `tool` message of its own. */
function encodeMessage(message: Message): OllamaMessage[] {
  if (message.role === 'tool' || message.parts.some(part => part.type === 'tool_result')) {
    return message.parts.flatMap((part): OllamaMessage[] => part.type !== 'tool_result' ? [] : [{
      role: 'tool',
      content: typeof part.content === 'string' ? part.content : textOf(part.content),
      ...(part.name && { tool_name: part.name }),
    }])
  }
  const out: OllamaMessage = { role: message.role, content: textOf(message.parts) }
  const images = imagesOf(message.parts)
  if (images.length) out.images = images
  const thinking = message.parts.flatMap(part => part.type === 'thinking' && !part.redacted ? [part.text] : []).join('')
  if (thinking && message.role === 'assistant') out.thinking = thinking
  const calls = message.parts.flatMap(part => part.type === 'tool_call' ? [{ function: { name: part.name, arguments: argumentsObject(part.arguments) } }] : [])
  if (calls.length) out.tool_calls = calls
  return [out]
}

/** Canonical sampling settings and what Ollama calls them under `options`. */
const optionNames = [
  ['temperature', 'temperature'], ['topP', 'top_p'], ['topK', 'top_k'], ['maxTokens', 'num_predict'], ['seed', 'seed'],
  ['presencePenalty', 'presence_penalty'], ['frequencyPenalty', 'frequency_penalty'],
] as const satisfies ReadonlyArray<readonly [keyof CanonicalRequest, string]>

/** Canonical request -> `/api/chat` body. Sampling settings go under `options`, as Ollama reads them. */
export function encodeRequest(request: CanonicalRequest): Record<string, unknown> {
  const options: Record<string, unknown> = {}
  for (const [field, name] of optionNames) if (request[field] !== undefined) options[name] = request[field]
  if (request.stop?.length) options.stop = request.stop
  const body: Record<string, unknown> = { model: request.model, messages: request.messages.flatMap(encodeMessage), stream: request.stream }
  if (Object.keys(options).length) body.options = options
  if (request.tools?.length && request.toolChoice !== 'none') {
    body.tools = request.tools.map(tool => ({ type: 'function', function: { name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? { type: 'object', properties: {} } } }))
  }
  const format = request.responseFormat
  if (format?.type === 'json_object') body.format = 'json'
  if (format?.type === 'json_schema' && format.schema) body.format = format.schema
  if (request.reasoning) body.think = request.reasoning.effort !== 'none'
  return body
}

/** `/api/chat` body -> canonical (for a client that speaks Ollama; the proxy's own routes never need it). */
export function decodeRequest(body: unknown): CanonicalRequest {
  if (!isObject(body)) throw new RequestValidationError('body must be a JSON object')
  if (typeof body.model !== 'string' || !body.model) throw new RequestValidationError('model is required', 'model')
  if (!Array.isArray(body.messages)) throw new RequestValidationError('messages must be an array', 'messages')
  const messages = body.messages.map((raw: unknown, index): Message => {
    if (!isObject(raw) || typeof raw.role !== 'string') throw new RequestValidationError(`messages[${index}] needs a role`, `messages.${index}.role`)
    const content = typeof raw.content === 'string' ? raw.content : ''
    if (raw.role === 'tool') return { role: 'tool', parts: [{ type: 'tool_result', callId: String(raw.tool_name ?? ''), name: raw.tool_name as string | undefined, content }] }
    const parts: Part[] = []
    if (typeof raw.thinking === 'string' && raw.thinking) parts.push({ type: 'thinking', text: raw.thinking })
    if (content) parts.push({ type: 'text', text: content })
    for (const data of Array.isArray(raw.images) ? raw.images : []) if (typeof data === 'string') parts.push({ type: 'image', data })
    for (const [i, call] of (Array.isArray(raw.tool_calls) ? raw.tool_calls : []).entries()) {
      if (isObject(call) && isObject(call.function)) parts.push({ type: 'tool_call', id: `call_${index}_${i}`, name: String(call.function.name ?? ''), arguments: JSON.stringify(call.function.arguments ?? {}) })
    }
    return { role: raw.role === 'system' || raw.role === 'assistant' ? raw.role : 'user', parts }
  })
  const options = isObject(body.options) ? body.options : {}
  const number = (value: unknown) => typeof value === 'number' ? value : undefined
  return {
    model: body.model,
    messages,
    stream: body.stream !== false,
    temperature: number(options.temperature),
    topP: number(options.top_p),
    topK: number(options.top_k),
    maxTokens: number(options.num_predict),
    seed: number(options.seed),
    ...(Array.isArray(options.stop) && { stop: options.stop.map(String) }),
  }
}
