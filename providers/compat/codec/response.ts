import type { CanonicalResponse, FinishReason, Part, TextPart } from 'model-proxy'
import { partsFromContent } from './content.ts'
import { finishFromChat, finishToChat } from './map-finish-reason.ts'
import { usageFromChat, usageToChat } from './usage.ts'
import { annotationsToChat, citationsFromChat } from './annotations.ts'
import { chatCompletionId } from './ids.ts'

type Raw = Record<string, unknown>
const obj = (value: unknown) => value && typeof value === 'object' && !Array.isArray(value) ? value as Raw : undefined

/** One choice's message -> canonical parts: reasoning, content, refusal, tool calls. */
function partsOfChoice(choice: Raw): Part[] {
  const message = obj(choice.message) ?? {}
  const parts: Part[] = []
  const reasoning = message.reasoning_content ?? message.reasoning
  if (typeof reasoning === 'string' && reasoning) parts.push({ type: 'thinking', text: reasoning })
  const content = partsFromContent(message.content)
  // A search model's citations count characters of the whole content: a string, one text part.
  const citations = citationsFromChat(message.annotations)
  const text = content.length === 1 && content[0]!.type === 'text' ? content[0] : undefined
  if (text && citations.length) text.citations = citations
  parts.push(...content)
  if (typeof message.refusal === 'string' && message.refusal) parts.push({ type: 'text', text: message.refusal, refusal: true })
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      const fn = obj(obj(call)?.function)
      if (!fn) continue
      parts.push({ type: 'tool_call', id: String(obj(call)!.id ?? ''), name: String(fn.name ?? ''), arguments: typeof fn.arguments === 'string' ? fn.arguments || '{}' : JSON.stringify(fn.arguments ?? {}) })
    }
  }
  return parts
}

/** A `chat.completion` object -> canonical; choices after the first (`n > 1`) are alternatives. Never throws. */
export function decodeChatResponse(body: unknown): CanonicalResponse {
  const raw = obj(body) ?? {}
  const choices = (Array.isArray(raw.choices) ? raw.choices : []).map(choice => obj(choice) ?? {})
  const first = choices[0] ?? {}
  const response: CanonicalResponse = {
    id: typeof raw.id === 'string' ? raw.id : chatCompletionId(),
    model: typeof raw.model === 'string' ? raw.model : '',
    parts: partsOfChoice(first),
    finishReason: finishFromChat(first.finish_reason),
  }
  if (choices.length > 1) response.alternatives = choices.slice(1).map(choice => ({ parts: partsOfChoice(choice), finishReason: finishFromChat(choice.finish_reason) }))
  if (typeof raw.created === 'number') response.created = raw.created
  const usage = usageFromChat(raw.usage)
  if (usage) response.usage = usage
  return response
}

/** Canonical parts -> one choice; refusal text goes to `message.refusal`, the format's place for it. */
function choiceOf(parts: Part[], finishReason: FinishReason, index: number): Raw {
  // An answer's content is text (a string): a generated image or file has no place in it (as in a stream).
  const texts = parts.filter((part): part is TextPart => part.type === 'text' && !part.refusal)
  // No text, or only empty text: null, as a stream of it reads (no content delta comes).
  const message: Raw = { role: 'assistant', content: texts.map(part => part.text).join('') || null }
  const annotations = annotationsToChat(texts)
  if (annotations.length) message.annotations = annotations
  const refusal = parts.flatMap(part => part.type === 'text' && part.refusal ? [part.text] : []).join('')
  if (refusal) message.refusal = refusal
  const thinking = parts.filter(part => part.type === 'thinking' && !part.redacted).map(part => (part as { text: string }).text).join('')
  if (thinking) message.reasoning_content = thinking
  const calls = parts.filter(part => part.type === 'tool_call')
  if (calls.length) message.tool_calls = calls.map(call => call.type === 'tool_call' && { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })
  return { index, message, logprobs: null, finish_reason: finishToChat(finishReason) }
}

/** Canonical -> a `chat.completion` object. */
export function encodeChatResponse(response: CanonicalResponse): Record<string, unknown> {
  const choices = [choiceOf(response.parts, response.finishReason, 0), ...(response.alternatives ?? []).map((alt, i) => choiceOf(alt.parts, alt.finishReason, i + 1))]
  const body: Raw = {
    id: response.id.startsWith('chatcmpl') ? response.id : chatCompletionId(),
    object: 'chat.completion',
    created: response.created ?? Math.floor(Date.now() / 1000),
    model: response.model,
    choices,
  }
  if (response.usage) body.usage = usageToChat(response.usage)
  return body
}
