import { z } from 'zod'
import { defineProxyPlugin, defineRequestState, endedStatus, type Credential } from 'model-proxy'
import { ownValue } from 'model-proxy/kit/guards'
import { createProxyMetrics } from './metrics.ts'
import { createMetricsAccess, type MetricsSettings } from './access.ts'
import { endpointLabel } from './endpoint-label.ts'

declare module 'model-proxy' {
  interface ProxyServices {
    /** The `/metrics` registry, for plugins that add their own series. */
    metricsRegistry?: import('prom-client').Registry
  }
}

const boolean = () => z.boolean({ error: 'must be true or false' })

/**
 * `GET /metrics` in the Prometheus text format: requests, upstream latency, tokens, retries, failovers and
 * credential states. The hot path only increments counters; credential states are counted at scrape time.
 */
export default defineProxyPlugin({
  name: 'metrics',
  after: ['routing', 'management'],
  configSchema: z.looseObject({
    metrics: z.object({
      enable: boolean().default(true),
      path: z.string().regex(/^\/[\w./-]*$/, { error: 'must be a path starting with /' }).default('/metrics'),
      /**
       * Scrapes need the management key (when a management secret is set; otherwise loopback only).
       * `auto`: only scrapers from beyond loopback do (model and provider names are not for everyone).
       */
      'require-key': z.union([boolean(), z.literal('auto')], { error: 'must be true, false or auto' }).default('auto'),
    }).prefault({}),
  }),
  setup(kernel) {
    const metrics = createProxyMetrics(kernel)
    kernel.services.metricsRegistry = metrics.registry
    const settings = () => kernel.config.metrics as MetricsSettings
    const access = createMetricsAccess(kernel)
    // The credential of the attempt that was retried: the next attempt on another one is a failover.
    const retried = defineRequestState<Credential>('metrics retried')

    kernel.hooks.hook('attempt-result', (ctx) => {
      if (!settings().enable) return
      const { credential } = ctx.candidate
      const provider = credential.provider
      if (ctx.firstByteMs !== undefined) {
        metrics.firstByte.observe([provider], ctx.firstByteMs / 1000)
        if (ctx.durationMs !== undefined) metrics.upstreamDuration.observe([provider], ctx.durationMs / 1000)
      }
      const previous = retried.get(ctx.request)
      if (previous && previous.id !== credential.id) metrics.failovers.inc([previous.provider, provider])
      if (ctx.action === 'retry') {
        metrics.retries.inc([provider, String(ctx.status)])
        retried.set(ctx.request, credential)
      }
    })

    kernel.hooks.hook('after-response', (ctx) => {
      if (!settings().enable) return
      const { request, candidate } = ctx
      const provider = candidate?.credential.provider ?? 'none'
      // Model names come from clients: only names the config holds (models, aliases, fallbacks keys) become
      // labels. A name a scenario rule served by pattern (`claude-*`) is the client's, without bound.
      const named = kernel.models.has(request.model) || ownValue(kernel.config.fallbacks, request.model) !== undefined
      const model = named ? request.model : 'unknown'
      const status = endedStatus(ctx)
      const endpoint = endpointLabel(request.event.url.pathname, request.event.context.matchedRoute?.route)
      metrics.requests.inc([endpoint, model, provider, String(status)])
      if (candidate && ctx.upstreamMs !== undefined) metrics.upstreamDuration.observe([provider], ctx.upstreamMs / 1000)
      const usage = ctx.usage
      if (!usage) return
      if (usage.inputTokens) metrics.tokens.inc([model, provider, 'input'], usage.inputTokens)
      if (usage.outputTokens) metrics.tokens.inc([model, provider, 'output'], usage.outputTokens)
      if (usage.reasoningTokens) metrics.tokens.inc([model, provider, 'reasoning'], usage.reasoningTokens)
      if (usage.cachedInputTokens) metrics.tokens.inc([model, provider, 'cached'], usage.cachedInputTokens)
      if (usage.cacheCreationInputTokens) metrics.tokens.inc([model, provider, 'cache_write'], usage.cacheCreationInputTokens)
      // Counts the proxy estimated (no usage reported, or a cut answer): the share of tokens that is a guess.
      if (usage.estimated) metrics.tokens.inc([model, provider, 'estimated'], usage.inputTokens + usage.outputTokens)
    })

    // The path is live config, so not a route; a GET-only middleware costs client POSTs nothing.
    kernel.app.use(async (event) => {
      const current = settings()
      if (!current.enable || event.url.pathname !== current.path) return
      const refused = await access(event, current)
      if (refused) return refused
      return new Response(await metrics.registry.metrics(), { headers: { 'content-type': metrics.registry.contentType } })
    }, { method: 'GET' })
    kernel.hooks.hook('close', () => { metrics.registry.clear() })
  },
})
