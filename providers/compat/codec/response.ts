import type { CanonicalResponse, Part } from 'model-proxy'
import { contentFromParts, partsFromContent } from './content.ts'
import { finishFromChat, finishToChat } from './map-finish-reason.ts'
import { usageFromChat, usageToChat } from './usage.ts'
import { chatCompletionId } from './ids.ts'

type Raw = Record<string, unknown>
const obj = (value: unknown) => value && typeof value === 'object' && !Array.isArray(value) ? value as Raw : undefined

/** A `chat.completion` object -> canonical (first choice). Never throws. */
export function decodeChatResponse(body: unknown): CanonicalResponse {
  const raw = obj(body) ?? {}
  const choice = obj(Array.isArray(raw.choices) ? raw.choices[0] : undefined) ?? {}
  const message = obj(choice.message) ?? {}
  const parts: Part[] = []
  const reasoning = message.reasoning_content ?? message.reasoning
  if (typeof reasoning === 'string' && reasoning) parts.push({ type: 'thinking', text: reasoning })
  parts.push(...partsFromContent(message.content))
  if (typeof message.refusal === 'string' && message.refusal) parts.push({ type: 'text', text: message.refusal })
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      const fn = obj(obj(call)?.function)
      if (!fn) continue
      parts.push({ type: 'tool_call', id: String(obj(call)!.id ?? ''), name: String(fn.name ?? ''), arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}) })
    }
  }
  const response: CanonicalResponse = {
    id: typeof raw.id === 'string' ? raw.id : chatCompletionId(),
    model: typeof raw.model === 'string' ? raw.model : '',
    parts,
    finishReason: finishFromChat(choice.finish_reason),
  }
  if (typeof raw.created === 'number') response.created = raw.created
  const usage = usageFromChat(raw.usage)
  if (usage) response.usage = usage
  return response
}

/** Canonical -> a `chat.completion` object. */
export function encodeChatResponse(response: CanonicalResponse): Record<string, unknown> {
  const message: Raw = { role: 'assistant', content: contentFromParts(response.parts) }
  const thinking = response.parts.filter(part => part.type === 'thinking' && !part.redacted).map(part => (part as { text: string }).text).join('')
  if (thinking) message.reasoning_content = thinking
  const calls = response.parts.filter(part => part.type === 'tool_call')
  if (calls.length) message.tool_calls = calls.map(call => call.type === 'tool_call' && { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })
  const body: Raw = {
    id: response.id.startsWith('chatcmpl') ? response.id : chatCompletionId(),
    object: 'chat.completion',
    created: response.created ?? Math.floor(Date.now() / 1000),
    model: response.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishToChat(response.finishReason) }],
  }
  if (response.usage) body.usage = usageToChat(response.usage)
  return body
}
