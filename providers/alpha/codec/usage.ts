import type { Usage } from 'model-proxy'
import { tokenCount } from 'model-proxy/kit/codec'

interface UsageMetadata { promptTokenCount?: unknown; candidatesTokenCount?: unknown; totalTokenCount?: unknown; cachedContentTokenCount?: unknown; thoughtsTokenCount?: unknown; toolUsePromptTokenCount?: unknown }

/**
 * Output counts thoughts too (reasoningTokens says how many), as the chat and responses formats do.
 * Input counts the results of the vendor's own tools (search, code execution) that the model read
 * (`toolUsePromptTokenCount`): the API bills them as input and its total includes them.
 */
export function usageFromGenerate(raw: unknown): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined
  const u = raw as UsageMetadata
  const thoughts = tokenCount(u.thoughtsTokenCount) ?? 0
  const toolUse = tokenCount(u.toolUsePromptTokenCount) ?? 0
  const usage: Usage = { inputTokens: (tokenCount(u.promptTokenCount) ?? 0) + toolUse, outputTokens: (tokenCount(u.candidatesTokenCount) ?? 0) + thoughts }
  const total = tokenCount(u.totalTokenCount)
  const cached = tokenCount(u.cachedContentTokenCount)
  if (total !== undefined) usage.totalTokens = total
  if (cached) usage.cachedInputTokens = cached
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
