import { defineProxyPlugin, type ProxyRequest } from 'model-proxy'
import { RoutingState } from './state.ts'
import { pickCandidate } from './pick.ts'
import { isQuotaError } from './cooldown.ts'
import { nextAfterQuota } from './quota-plan.ts'

/** How often an instance pulls credential states other instances wrote (shared storage). */
export const syncIntervalMs = 500

interface RequestTally { credentials: Set<string> }

declare module 'model-proxy' {
  interface ProxyServices {
    /** Credential states, cooldowns and cursors (plugins/routing): management, metrics and credential files read it. */
    routingState?: RoutingState
  }
}

/**
 * Routing rules 1-11: candidates from the model index, a priority-aware round-robin or fill-first pick,
 * quota cooldowns with failover to the preview model and the next credential, waits for a credential
 * that is about to cool down, all state shared through storage.
 */
export default defineProxyPlugin({
  name: 'routing',
  setup(kernel) {
    // While Redis is away writes fail (the state stays in memory and is written back when it returns).
    const state = new RoutingState(kernel.storage, error => kernel.warnLimited('routing-state', `credential state not shared: ${(error as Error).message}`))
    kernel.services.availability = candidate => state.availability(candidate)
    kernel.services.routingState = state
    const cursors = new Map<string, number>()
    const tallies = new WeakMap<ProxyRequest, RequestTally>()
    const tally = (request: ProxyRequest) => {
      let value = tallies.get(request)
      if (!value) tallies.set(request, value = { credentials: new Set() })
      return value
    }

    const poll = setInterval(() => { if (kernel.fleet.health().up) state.sync().catch(() => {}) }, syncIntervalMs)
    poll.unref()
    void state.sync().catch(() => {})
    const offUp = kernel.fleet.onUp(() => {
      state.reconcile().then((written) => {
        if (written) kernel.logger.info(`shared store back: ${written} credential state(s) written back`)
      }, () => {})
    })
    kernel.hooks.hook('close', () => {
      clearInterval(poll)
      offUp()
    })

    kernel.hooks.hook('route-resolve', (ctx) => {
      if (!ctx.candidates.length) ctx.candidates = kernel.models.get(ctx.request.model) ?? []
    })

    kernel.hooks.hook('credential-pick', (ctx) => {
      if (ctx.pick) return
      const { config } = kernel
      const limit = config['max-retry-credentials']
      // Which credentials a request has used matters only under a cap: no per-request bookkeeping otherwise.
      const seen = limit > 0 ? tally(ctx.request).credentials : undefined
      const candidates = seen && seen.size >= limit ? ctx.candidates.filter(c => seen.has(c.credential.id)) : ctx.candidates
      const result = pickCandidate({ model: ctx.request.model, candidates, tried: ctx.tried, strategy: config.routing.strategy, available: c => state.availability(c), cursors })
      if (result.pick) {
        ctx.pick = result.pick
        seen?.add(result.pick.credential.id)
        return
      }
      if (result.earliestReady === undefined) return
      const waitMs = result.earliestReady - Date.now()
      if (waitMs <= config['max-retry-interval'] * 1000) {
        ctx.waitUntil = result.earliestReady
        return
      }
      const seconds = Math.ceil(waitMs / 1000)
      ctx.error = {
        status: 429,
        type: 'rate_limit_error',
        code: 'model_cooldown',
        retryAfter: seconds,
        message: `all credentials for model ${ctx.request.model} are cooling down after quota errors; the first resets in ${seconds}s (at ${new Date(result.earliestReady).toISOString()})`,
      }
    })

    kernel.hooks.hook('attempt-result', (ctx) => {
      const { credential } = ctx.candidate
      if (ctx.action === 'done') {
        state.markSuccess(credential.id, ctx.candidate.upstreamModel)
        return
      }
      // A stream broken before its first event: the executor already decided (request-retry + bootstrap-retries).
      if (ctx.bootstrap) return
      if (!isQuotaError(ctx.status, ctx.message)) return
      const cooldown = state.markQuota(credential.id, ctx.candidate.upstreamModel, ctx.retryAfter, ctx.message)
      kernel.logger.info(`cooldown: ${credential.id} for ${ctx.candidate.upstreamModel} until ${new Date(cooldown.until).toISOString()} (quota error ${ctx.status}, failure ${cooldown.failures} in a row)`)
      const quota = kernel.config['quota-exceeded']
      const next = nextAfterQuota(ctx.candidate, { switchProject: quota['switch-project'], switchPreviewModel: quota['switch-preview-model'] }, ctx.request.model)
      if (next === 'stop') ctx.action = 'fail'
      else if (next === 'next-credential') ctx.action = 'retry'
      else {
        ctx.action = 'retry'
        ctx.retryWith = next
      }
    })
  },
})
