import type { Usage } from 'model-proxy'
import { tokenCount } from 'model-proxy/kit/codec'

interface ChatUsage {
  prompt_tokens?: unknown
  completion_tokens?: unknown
  total_tokens?: unknown
  prompt_tokens_details?: { cached_tokens?: unknown } | null
  completion_tokens_details?: { reasoning_tokens?: unknown } | null
}

export function usageFromChat(raw: unknown): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  const usage = raw as ChatUsage
  const out: Usage = { inputTokens: tokenCount(usage.prompt_tokens) ?? 0, outputTokens: tokenCount(usage.completion_tokens) ?? 0, totalTokens: tokenCount(usage.total_tokens) }
  const cached = tokenCount(usage.prompt_tokens_details?.cached_tokens)
  const reasoning = tokenCount(usage.completion_tokens_details?.reasoning_tokens)
  if (cached) out.cachedInputTokens = cached
  if (reasoning) out.reasoningTokens = reasoning
  return out
}

/** total = prompt + completion, as the spec requires. */
export function usageToChat(usage: Usage): Record<string, unknown> {
  const out: Record<string, unknown> = {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  }
  if (usage.cachedInputTokens !== undefined) out.prompt_tokens_details = { cached_tokens: usage.cachedInputTokens }
  if (usage.reasoningTokens !== undefined) out.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens }
  return out
}
