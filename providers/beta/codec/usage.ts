import type { Usage } from 'model-proxy'
import { tokenCount } from 'model-proxy/kit/codec'

interface MessagesUsage { input_tokens?: unknown; output_tokens?: unknown; cache_read_input_tokens?: unknown; cache_creation_input_tokens?: unknown }

/** Canonical input counts every prompt token: the format splits out cache reads and writes. */
export function usageFromMessages(raw: unknown, base?: Usage): Usage | undefined {
  if (!raw || typeof raw !== 'object') return base
  const u = raw as MessagesUsage
  const cacheRead = tokenCount(u.cache_read_input_tokens) ?? base?.cachedInputTokens ?? 0
  const cacheWrite = tokenCount(u.cache_creation_input_tokens) ?? base?.cacheCreationInputTokens ?? 0
  const prompt = tokenCount(u.input_tokens)
  const input = prompt !== undefined ? prompt + cacheRead + cacheWrite : base?.inputTokens ?? 0
  const usage: Usage = { inputTokens: input, outputTokens: tokenCount(u.output_tokens) ?? base?.outputTokens ?? 0 }
  if (cacheRead) usage.cachedInputTokens = cacheRead
  if (cacheWrite) usage.cacheCreationInputTokens = cacheWrite
  return usage
}

export function usageToMessages(usage: Usage | undefined): Record<string, number> {
  const cacheRead = usage?.cachedInputTokens ?? 0
  const cacheWrite = usage?.cacheCreationInputTokens ?? 0
  return {
    input_tokens: Math.max(0, (usage?.inputTokens ?? 0) - cacheRead - cacheWrite),
    output_tokens: usage?.outputTokens ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  }
}
