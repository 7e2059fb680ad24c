import type { FinishReason, TextPart } from 'model-proxy'

/** The reasons that mean the vendor withheld content (text or generated images, a policy rule, Model Armor). */
const filtered = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION', 'LANGUAGE', 'ESCALATION', 'PUP_LIMITED_DISABLED', 'MODEL_ARMOR'])

/**
 * generateContent `finishReason` -> canonical; STOP with a functionCall part means tool calls.
 * CONTINUATION: the per-request token limit cut an answer that is not done, as MAX_TOKENS does.
 */
export function finishFromGenerate(reason: unknown, hasToolCall: boolean): FinishReason {
  if (reason === 'MAX_TOKENS' || reason === 'CONTINUATION') return 'length'
  if (filtered.has(String(reason))) return 'content_filter'
  return hasToolCall ? 'tool_calls' : 'stop'
}

export function finishToGenerate(reason: FinishReason): string {
  if (reason === 'length') return 'MAX_TOKENS'
  if (reason === 'content_filter') return 'SAFETY'
  return 'STOP'
}

/**
 * `promptFeedback.blockReason` (the prompt itself was refused, no candidate comes) -> a refusal that
 * names the reason, so other formats show why instead of an empty answer.
 */
export function blockedPrompt(feedback: unknown): TextPart | undefined {
  const reason = (feedback as { blockReason?: unknown } | null)?.blockReason
  if (typeof reason !== 'string' || !reason || reason === 'BLOCKED_REASON_UNSPECIFIED') return undefined
  return { type: 'text', text: `The prompt was blocked (${reason}).`, refusal: true }
}
