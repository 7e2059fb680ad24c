import { defineProxyPlugin } from 'model-proxy'
import { RoutingState } from './state.ts'
import { ownersById } from './credential-owner.ts'
import { AffinityStore } from './affinity.ts'
import { choose, type Chooser } from './choose.ts'
import { resolveHook } from './resolve-hook.ts'
import { afterAttempt } from './after-attempt.ts'
import { servedModelHeader } from './served-model.ts'

/** How often an instance pulls credential states other instances wrote (shared storage). */
export const syncIntervalMs = 500

declare module 'model-proxy' {
  interface ProxyServices {
    /** Credential states, affinity and the route preview (plugins/routing). */
    routingState?: RoutingState
    routing?: Chooser
  }
}

/**
 * Routing: candidates from the model index, a priority-aware round-robin or fill-first pick,
 * quota cooldowns with failover to the preview model and the next credential, waits for a credential
 * that is about to cool down, all state shared through storage. On top (docs/agent-routing.md): scenario
 * rules, sticky sessions, fallback chains across families and the quota-aware strategy.
 */
export default defineProxyPlugin({
  name: 'routing',
  setup(kernel) {
    // While Redis is away writes fail (the state stays in memory and is written back when it returns).
    const state = new RoutingState(kernel.storage, error => kernel.warnLimited('routing-state', `credential state not shared: ${(error as Error).message}`))
    const affinity = new AffinityStore(kernel.storage, {
      onError: error => kernel.warnLimited('routing-affinity', `session affinity not shared: ${(error as Error).message}`),
      reachable: () => kernel.fleet.health().up,
    })
    // States belong to the credential, not its place in a list (credential-owner.ts).
    state.owners = () => ownersById(kernel.credentials)
    const chooser: Chooser = { kernel, state, affinity, cursors: new Map() }
    kernel.services.availability = candidate => state.availability(candidate)
    kernel.services.routingState = state
    kernel.services.routing = chooser

    const poll = setInterval(() => { if (kernel.fleet.health().up) state.sync().catch(() => {}) }, syncIntervalMs)
    poll.unref()
    void state.sync().catch(() => {})
    const offUp = kernel.fleet.onUp(() => {
      state.reconcile().then((written) => {
        if (written) kernel.logger.info(`shared store back: ${written} credential state(s) written back`)
      }, () => {})
    })
    kernel.hooks.hook('config-reload', () => state.follow())
    kernel.hooks.hook('close', () => {
      clearInterval(poll)
      offUp()
    })

    kernel.hooks.hook('route-resolve', ctx => resolveHook(kernel, ctx))
    kernel.hooks.hook('credential-pick', ctx => ctx.pick ? undefined : choose(chooser, ctx))
    kernel.hooks.hook('attempt-result', ctx => afterAttempt(chooser, ctx))
    kernel.hooks.hook('before-response', servedModelHeader)
  },
})
