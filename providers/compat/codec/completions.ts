import { type StreamEncoder, type StreamEncoderOptions, type WireCodec, type CanonicalRequest, type CanonicalResponse, type StreamEvent, RequestValidationError } from 'model-proxy'
import { usageToChat } from './usage.ts'
import { chatCompletionId } from './ids.ts'

/**
 * The legacy `/v1/completions` prompt form rides on the chat pipeline: the prompt becomes one user
 * message, and the answer is re-shaped as `text_completion` (tool calls have no place there).
 */
export function decodeCompletionsRequest(body: Record<string, unknown>): CanonicalRequest {
  if (typeof body.model !== 'string' || !body.model) throw new RequestValidationError('you must provide a model parameter', 'model')
  const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every(item => typeof item === 'string')
  const prompt = strings(body.prompt) ? body.prompt.join('\n') : body.prompt
  if (typeof prompt !== 'string') throw new RequestValidationError('prompt must be a string or an array of strings', 'prompt')
  const request: CanonicalRequest = { model: body.model, stream: body.stream === true, messages: [{ role: 'user', parts: [{ type: 'text', text: prompt }] }] }
  if (typeof body.max_tokens === 'number') request.maxTokens = body.max_tokens
  if (typeof body.temperature === 'number') request.temperature = body.temperature
  if (typeof body.top_p === 'number') request.topP = body.top_p
  if (body.stop !== undefined && body.stop !== null) {
    if (typeof body.stop !== 'string' && !strings(body.stop)) throw new RequestValidationError('stop must be a string or an array of strings', 'stop')
    request.stop = typeof body.stop === 'string' ? [body.stop] : body.stop
  }
  if (typeof body.user === 'string') request.user = body.user
  return request
}

const text = (response: CanonicalResponse) => response.parts.map(part => part.type === 'text' ? part.text : '').join('')
const finish = (reason: string) => reason === 'length' ? 'length' : reason === 'content_filter' ? 'content_filter' : 'stop'

function encodeResponse(response: CanonicalResponse): Record<string, unknown> {
  return {
    id: chatCompletionId().replace('chatcmpl', 'cmpl'),
    object: 'text_completion',
    created: response.created ?? Math.floor(Date.now() / 1000),
    model: response.model,
    choices: [{ text: text(response), index: 0, logprobs: null, finish_reason: finish(response.finishReason) }],
    ...(response.usage && { usage: usageToChat(response.usage) }),
  }
}

function createEncoder(options: StreamEncoderOptions): StreamEncoder {
  const id = chatCompletionId().replace('chatcmpl', 'cmpl')
  const created = Math.floor(Date.now() / 1000)
  const frame = (piece: string, reason: string | null, usage?: unknown) =>
    `data: ${JSON.stringify({ id, object: 'text_completion', created, model: options.model, choices: [{ text: piece, index: 0, logprobs: null, finish_reason: reason }], ...(usage !== undefined && { usage }) })}\n\n`
  return {
    push(event: StreamEvent): string {
      if (event.type === 'text') return frame(event.delta, null)
      if (event.type === 'finish') return frame('', finish(event.reason), event.usage && usageToChat(event.usage))
      if (event.type === 'error') return `data: ${JSON.stringify({ error: { message: event.message, type: event.errorType ?? 'server_error', code: null } })}\n\n`
      return ''
    },
    end: () => 'data: [DONE]\n\n',
  }
}

/** Client-side encoding for `/v1/completions` (see `client` in core/pipeline/answer-plan.ts). */
export const completionsEncoding: Pick<WireCodec, 'response' | 'stream'> = {
  response: { decode: () => { throw new Error('completions responses are never decoded') }, encode: encodeResponse },
  stream: { createDecoder: () => { throw new Error('completions streams are never decoded') }, createEncoder: createEncoder },
}
