import type { Usage } from 'model-proxy'
import { tokenCount } from 'model-proxy/kit/codec'

interface MessagesUsage {
  input_tokens?: unknown
  output_tokens?: unknown
  cache_read_input_tokens?: unknown
  cache_creation_input_tokens?: unknown
  output_tokens_details?: { thinking_tokens?: unknown } | null
}

/**
 * Canonical input counts every prompt token: the format splits out cache reads and writes. Output
 * counts thinking too; `output_tokens_details.thinking_tokens` says how much of it (a stream's
 * message_delta may leave it out: the count `base` had stays).
 */
export function usageFromMessages(raw: unknown, base?: Usage): Usage | undefined {
  if (!raw || typeof raw !== 'object') return base
  const u = raw as MessagesUsage
  const cacheRead = tokenCount(u.cache_read_input_tokens) ?? base?.cachedInputTokens ?? 0
  const cacheWrite = tokenCount(u.cache_creation_input_tokens) ?? base?.cacheCreationInputTokens ?? 0
  const thinking = tokenCount(u.output_tokens_details?.thinking_tokens) ?? base?.reasoningTokens ?? 0
  const prompt = tokenCount(u.input_tokens)
  const input = prompt !== undefined ? prompt + cacheRead + cacheWrite : base?.inputTokens ?? 0
  const usage: Usage = { inputTokens: input, outputTokens: tokenCount(u.output_tokens) ?? base?.outputTokens ?? 0 }
  if (cacheRead) usage.cachedInputTokens = cacheRead
  if (cacheWrite) usage.cacheCreationInputTokens = cacheWrite
  if (thinking) usage.reasoningTokens = thinking
  return usage
}

export function usageToMessages(usage: Usage | undefined): Record<string, unknown> {
  const cacheRead = usage?.cachedInputTokens ?? 0
  const cacheWrite = usage?.cacheCreationInputTokens ?? 0
  const out: Record<string, unknown> = {
    input_tokens: Math.max(0, (usage?.inputTokens ?? 0) - cacheRead - cacheWrite),
    output_tokens: usage?.outputTokens ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  }
  if (usage?.reasoningTokens) out.output_tokens_details = { thinking_tokens: usage.reasoningTokens }
  return out
}
