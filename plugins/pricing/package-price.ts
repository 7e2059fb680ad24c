import type { ModelPrice } from './cost.ts'

/** A price in the package's table: flat, or tiered by the request's prompt size. */
type TableValue = number | { base: number; tiers: Array<{ start: number; price: number }> } | undefined

/** A prompt over a tier's start is priced at that tier for all its tokens (as the package computes it). */
function at(value: TableValue, inputTokens: number): number | undefined {
  if (value === undefined || typeof value === 'number') return value
  let price = value.base
  for (const tier of value.tiers) if (inputTokens > tier.start) price = tier.price
  return price
}

/**
 * The package's per-model prices (`input_mtok`, `output_mtok`, `cache_read_mtok`, `cache_write_mtok`,
 * USD per million tokens) as our price for a prompt of `inputTokens`. Other kinds (searches, audio)
 * are not in usage records and are left out.
 */
export function fromTable(table: Record<string, unknown>, inputTokens: number): ModelPrice {
  const read = (key: string) => at(table[key] as TableValue, inputTokens)
  return { input: read('input_mtok') ?? 0, output: read('output_mtok') ?? 0, cacheRead: read('cache_read_mtok'), cacheWrite: read('cache_write_mtok') }
}
