import type { Usage } from 'model-proxy'

interface ChatUsage {
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
  prompt_tokens_details?: { cached_tokens?: number }
  completion_tokens_details?: { reasoning_tokens?: number }
}

export function usageFromChat(raw: unknown): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  const usage = raw as ChatUsage
  const out: Usage = { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0, totalTokens: usage.total_tokens }
  if (usage.prompt_tokens_details?.cached_tokens) out.cachedInputTokens = usage.prompt_tokens_details.cached_tokens
  if (usage.completion_tokens_details?.reasoning_tokens) out.reasoningTokens = usage.completion_tokens_details.reasoning_tokens
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
