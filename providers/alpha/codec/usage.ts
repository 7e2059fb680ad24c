import type { Usage } from 'model-proxy'

interface UsageMetadata { promptTokenCount?: number; candidatesTokenCount?: number; totalTokenCount?: number; cachedContentTokenCount?: number; thoughtsTokenCount?: number }

/** Output counts thoughts too (reasoningTokens says how many), as the chat and responses formats do. */
export function usageFromGenerate(raw: unknown): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  const u = raw as UsageMetadata
  const thoughts = u.thoughtsTokenCount ?? 0
  const usage: Usage = { inputTokens: u.promptTokenCount ?? 0, outputTokens: (u.candidatesTokenCount ?? 0) + thoughts }
  if (u.totalTokenCount !== undefined) usage.totalTokens = u.totalTokenCount
  if (u.cachedContentTokenCount) usage.cachedInputTokens = u.cachedContentTokenCount
  if (thoughts) usage.reasoningTokens = thoughts
  return usage
}

export function usageToGenerate(usage: Usage): Record<string, number> {
  const thoughts = usage.reasoningTokens ?? 0
  const out: Record<string, number> = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: Math.max(0, usage.outputTokens - thoughts),
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  }
  if (thoughts) out.thoughtsTokenCount = thoughts
  if (usage.cachedInputTokens) out.cachedContentTokenCount = usage.cachedInputTokens
  return out
}
