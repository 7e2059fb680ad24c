import { createRequire } from 'node:module'
import type { Usage } from 'model-proxy'
import { ownValue } from 'model-proxy/kit/guards'
import { costOf, type ModelPrice } from './cost.ts'
import { fromTable } from './package-price.ts'

type PricesModule = typeof import('@pydantic/genai-prices')
let loaded: PricesModule | undefined
/**
 * Loaded natively on first use: through the plugin loader's transform the package's 800 KB bundle
 * took seconds to start; Node's own require reads its CommonJS build in milliseconds.
 */
const pricesModule = () => loaded ??= createRequire(import.meta.url)('@pydantic/genai-prices') as PricesModule

/**
 * Prices from `@pydantic/genai-prices` (the data ships inside the package: nothing is fetched at run
 * time), with the config's `model-prices` first. The provider a model id belongs to is looked up once.
 */
export function createPriceTable(overrides: () => Record<string, ModelPrice>) {
  // Model id -> its row of the package's table, looked up once (a lookup walks every model, ~1 ms).
  // Rows whose price changed on a date are looked up again the next day.
  const rows = new Map<string, { table: Record<string, unknown>; day: number } | null>()
  const rowOf = (model: string) => {
    const day = Math.floor(Date.now() / 86_400_000)
    let row = rows.get(model)
    if (row === undefined || (row && row.day !== day)) {
      const prices = pricesModule()
      const provider = prices.findProvider({ modelId: model })
      const result = provider ? prices.calcPrice({ input_tokens: 1 }, model, { provider }) : null
      row = result ? { table: result.model_price as Record<string, unknown>, day } : null
      if (rows.size > 5000) rows.clear()
      rows.set(model, row)
    }
    return row
  }
  const fromPackage = (usage: Usage, model: string): number | undefined => {
    const row = rowOf(model)
    return row ? costOf(usage, fromTable(row.table, usage.inputTokens)) : undefined
  }
  return {
    /** USD for `usage`: the override of the client's name (an alias), then of the upstream model, then the table. Undefined: no price known. */
    cost(usage: Usage, model: string, upstreamModel?: string): number | undefined {
      const own = overrides()
      const price = ownValue(own, model) ?? (upstreamModel ? ownValue(own, upstreamModel) : undefined)
      if (price) return costOf(usage, price)
      return (upstreamModel ? fromPackage(usage, upstreamModel) : undefined) ?? fromPackage(usage, model)
    },
    /** The price per million tokens the table would use (overrides first), for the panel and estimates. */
    price(model: string, upstreamModel?: string): ModelPrice | undefined {
      const own = overrides()
      const price = ownValue(own, model) ?? (upstreamModel ? ownValue(own, upstreamModel) : undefined)
      if (price) return price
      const row = (upstreamModel ? rowOf(upstreamModel) : null) ?? rowOf(model)
      return row ? fromTable(row.table, 0) : undefined
    },
  }
}

export type PriceTable = ReturnType<typeof createPriceTable>
