import type { CanonicalResponse, FinishReason, Part, Usage } from 'model-proxy'
import { argumentsObject, isObject, type OllamaChunk, type OllamaToolCall } from './wire.ts'

/** `done_reason` -> canonical; a message that calls tools finishes with `tool_calls`. */
export function finishReason(chunk: OllamaChunk, calledTools: boolean): FinishReason {
  if (calledTools) return 'tool_calls'
  return chunk.done_reason === 'length' ? 'length' : 'stop'
}

export function usageOf(chunk: OllamaChunk): Usage | undefined {
  if (typeof chunk.prompt_eval_count !== 'number' && typeof chunk.eval_count !== 'number') return undefined
  const inputTokens = chunk.prompt_eval_count ?? 0
  const outputTokens = chunk.eval_count ?? 0
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }
}

/** Ollama names no call: ids are made here, stable within one answer. */
export const toolCallParts = (calls: OllamaToolCall[] | undefined, first = 0): Part[] =>
  (calls ?? []).map((call, i) => ({ type: 'tool_call', id: `call_${first + i}`, name: String(call.function?.name ?? ''), arguments: JSON.stringify(call.function?.arguments ?? {}) }))

/** A whole `/api/chat` answer (`stream: false`) -> canonical. */
export function decodeResponse(body: unknown): CanonicalResponse {
  const chunk = (isObject(body) ? body : {}) as OllamaChunk
  const message = chunk.message ?? {}
  const parts: Part[] = []
  if (message.thinking) parts.push({ type: 'thinking', text: message.thinking })
  if (message.content) parts.push({ type: 'text', text: message.content })
  parts.push(...toolCallParts(message.tool_calls))
  const usage = usageOf(chunk)
  return {
    id: `ollama-${crypto.randomUUID()}`,
    model: String(chunk.model ?? ''),
    ...(chunk.created_at && { created: Math.floor(Date.parse(chunk.created_at) / 1000) }),
    parts,
    finishReason: finishReason(chunk, !!message.tool_calls?.length),
    ...(usage && { usage }),
  }
}

/** Canonical -> a whole `/api/chat` answer. */
export function encodeResponse(response: CanonicalResponse): Record<string, unknown> {
  const text = (type: 'text' | 'thinking') => response.parts.flatMap(part => part.type === type ? [part.text] : []).join('')
  const calls = response.parts.flatMap(part => part.type === 'tool_call' ? [{ function: { name: part.name, arguments: argumentsObject(part.arguments) } }] : [])
  return {
    model: response.model,
    created_at: new Date((response.created ?? Date.now() / 1000) * 1000).toISOString(),
    message: { role: 'assistant', content: text('text'), ...(text('thinking') && { thinking: text('thinking') }), ...(calls.length && { tool_calls: calls }) },
    done: true,
    done_reason: response.finishReason === 'length' ? 'length' : 'stop',
    prompt_eval_count: response.usage?.inputTokens ?? 0,
    eval_count: response.usage?.outputTokens ?? 0,
  }
}
