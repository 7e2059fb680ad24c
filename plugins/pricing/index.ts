import { z } from 'zod'
import { defineProxyPlugin, type Usage } from 'model-proxy'
import { createPriceTable, type PriceTable } from './table.ts'
import type { ModelPrice } from './cost.ts'

declare module 'model-proxy' {
  interface ProxyServices {
    /** Prices per model (plugins/pricing): what a request's usage cost in USD, undefined when no price is known. */
    prices?: PriceTable & { costOfUsage(usage: Usage | undefined, model: string, upstreamModel?: string): number | undefined }
  }
}

const perMillion = z.number({ error: 'must be a number (USD per million tokens)' }).min(0, { error: 'must be >= 0' })

/** `model-prices`: `{<model or alias>: {input, output, cache-read?, cache-write?, reasoning?}}`, USD per million tokens. */
const schema = z.looseObject({
  'model-prices': z.record(z.string(), z.object({
    input: perMillion,
    output: perMillion,
    'cache-read': perMillion.optional(),
    'cache-write': perMillion.optional(),
    reasoning: perMillion.optional(),
  })).default({}),
})

type PricingConfig = z.infer<typeof schema>
type PriceConfig = PricingConfig['model-prices']

declare module 'model-proxy' {
  interface ProxyConfig extends PricingConfig {}
}

const toPrices = (config: PriceConfig): Record<string, ModelPrice> => Object.fromEntries(Object.entries(config).map(([model, p]) => [model, {
  input: p.input, output: p.output, cacheRead: p['cache-read'], cacheWrite: p['cache-write'], reasoning: p.reasoning,
}]))

/**
 * What requests cost: a price table per model from a maintained package, overridable in config.
 * Usage records and client-key budgets read it through `kernel.services.prices`.
 */
export default defineProxyPlugin({
  name: 'pricing',
  configSchema: schema,
  setup(kernel) {
    let source: unknown
    let prices: Record<string, ModelPrice> = {}
    const overrides = () => {
      const current = kernel.config['model-prices'] ?? {}
      if (current !== source) { source = current; prices = toPrices(current) }
      return prices
    }
    const table = createPriceTable(overrides)
    kernel.services.prices = {
      ...table,
      costOfUsage: (usage, model, upstreamModel) => usage ? table.cost(usage, model, upstreamModel) : 0,
    }
  },
})
