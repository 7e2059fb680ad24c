import type { Usage } from 'model-proxy'
import { tokenCount } from 'model-proxy/kit/codec'
import { isObject } from './guards.ts'

/** `usage` of a response object -> canonical. `input_tokens` already includes the cached ones in this format. */
export function usageFromWire(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined
  const usage: Usage = { inputTokens: tokenCount(value.input_tokens) ?? 0, outputTokens: tokenCount(value.output_tokens) ?? 0 }
  const total = tokenCount(value.total_tokens)
  const cached = isObject(value.input_tokens_details) ? tokenCount(value.input_tokens_details.cached_tokens) : undefined
  const reasoning = isObject(value.output_tokens_details) ? tokenCount(value.output_tokens_details.reasoning_tokens) : undefined
  if (total !== undefined) usage.totalTokens = total
  if (cached !== undefined) usage.cachedInputTokens = cached
  if (reasoning !== undefined) usage.reasoningTokens = reasoning
  return usage
}

/** Canonical usage -> the format's `usage` (every field present, as the SDK types require). */
export function usageToWire(usage: Usage | undefined): Record<string, unknown> | null {
  if (!usage) return null
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? usage.inputTokens + usage.outputTokens,
  }
}
