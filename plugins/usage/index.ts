import { z } from 'zod'
import { defineProxyPlugin, defineRequestState } from 'model-proxy'
import { recordFrom } from './record.ts'
import { UsageStore } from './store.ts'
import { addUsageRoutes } from './routes.ts'
import { addSeriesRoute } from './routes-series.ts'

/** How often pending records are written to storage. */
export const flushIntervalMs = 1000
const dayMs = 86_400_000

/**
 * Usage statistics (`usage-statistics-enabled`): one record per request, kept through unstorage so a
 * restart loses nothing, pruned after `usage-retention-days`.
 */
const configSchema = z.looseObject({
  'usage-retention-days': z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(1, { error: 'must be >= 1' }).default(30),
})
type UsageConfig = z.infer<typeof configSchema>

declare module 'model-proxy' {
  interface ProxyConfig extends UsageConfig {}
}

/** Usage statistics: one record per request, kept in storage for `usage-retention-days`, with the management routes that read, chart, export and import them. */
export default defineProxyPlugin({
  name: 'usage',
  after: ['management'],
  configSchema,
  setup(kernel) {
    // While Redis is away records wait in memory (retried every second and at reconnect): none is lost or counted twice.
    const store = new UsageStore(kernel.storage, error => kernel.warnLimited('usage-flush', `usage records kept in memory (${store.buffered} waiting): ${(error as Error).message}`))
    const retention = () => kernel.config['usage-retention-days']
    // A named key's name as it was served: a key rotated, renamed or deleted while its answer streams is
    // unknown by the end, and would be counted under its anonymous id.
    const servedAs = defineRequestState<string>('usage key name')
    const nameOf = (key: string | undefined) => key === undefined ? undefined : kernel.services.clientKeys?.nameOf(key)
    kernel.hooks.hook('route-resolve', (ctx) => { servedAs.set(ctx.request, nameOf(ctx.request.clientKey)) })
    kernel.hooks.hook('after-response', (ctx) => {
      if (!kernel.config['usage-statistics-enabled']) return
      const keyName = servedAs.get(ctx.request) ?? nameOf(ctx.request.clientKey)
      const cost = kernel.services.prices?.costOfUsage(ctx.usage, ctx.request.model, ctx.candidate?.upstreamModel)
      store.add(recordFrom(ctx, { keyName, cost }))
    })
    const timer = setInterval(() => { void store.flush() }, flushIntervalMs)
    timer.unref()
    const offUp = kernel.fleet.onUp(() => { void store.flush() })
    const pruner = setInterval(() => { void store.prune(Date.now() - retention() * dayMs).catch(() => {}) }, 3_600_000)
    pruner.unref()
    kernel.hooks.hook('close', async () => {
      clearInterval(timer)
      clearInterval(pruner)
      offUp()
      await store.flush()
    })
    addUsageRoutes(kernel, store, () => Date.now() - retention() * dayMs)
    addSeriesRoute(kernel, store)
  },
})
