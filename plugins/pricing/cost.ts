import type { Usage } from 'model-proxy'

/** USD per million tokens of each kind (a config override, or read off the price table). */
export interface ModelPrice {
  input: number
  output: number
  /** Cached prompt tokens read (default: the input price). */
  cacheRead?: number
  /** Prompt tokens written to the cache (default: the input price). */
  cacheWrite?: number
  /** Reasoning tokens (default: the output price; they are part of the output count). */
  reasoning?: number
}

/**
 * What `usage` costs at `price`, in USD. Canonical input counts every prompt token (cache reads and
 * writes included) and output counts reasoning, so each special kind is taken out of its total once.
 */
export function costOf(usage: Usage, price: ModelPrice): number {
  const cacheRead = usage.cachedInputTokens ?? 0
  const cacheWrite = usage.cacheCreationInputTokens ?? 0
  const reasoning = usage.reasoningTokens ?? 0
  const plainInput = Math.max(0, usage.inputTokens - cacheRead - cacheWrite)
  const plainOutput = Math.max(0, usage.outputTokens - reasoning)
  const micro = plainInput * price.input
    + cacheRead * (price.cacheRead ?? price.input)
    + cacheWrite * (price.cacheWrite ?? price.input)
    + plainOutput * price.output
    + reasoning * (price.reasoning ?? price.output)
  return micro / 1_000_000
}
