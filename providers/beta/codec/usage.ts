import type { Usage } from 'model-proxy'

interface MessagesUsage { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number }

/** Canonical input counts every prompt token: the format splits out cache reads and writes. */
export function usageFromMessages(raw: unknown, base?: Usage): Usage | undefined {
  if (!raw || typeof raw !== 'object') return base
  const u = raw as MessagesUsage
  const cacheRead = u.cache_read_input_tokens ?? base?.cachedInputTokens ?? 0
  const cacheWrite = u.cache_creation_input_tokens ?? base?.cacheCreationInputTokens ?? 0
  const input = u.input_tokens !== undefined ? u.input_tokens + cacheRead + cacheWrite : base?.inputTokens ?? 0
  const usage: Usage = { inputTokens: input, outputTokens: u.output_tokens ?? base?.outputTokens ?? 0 }
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
