import type { ProxyKernel } from 'model-proxy'
import { addManagementRoute, type Guard } from '../management/api.ts'
import { clientKeysOf, policyOf } from './schema.ts'
import { unpricedUpstreams } from './model-access.ts'
import type { UnpricedModels } from './unpriced.ts'

/** Every served model without a price: its upstream names without one, and what keys with a budget met there. */
export function unpricedView(kernel: ProxyKernel, unpriced: UnpricedModels) {
  const price = kernel.services.prices?.price
  const seen = new Map(unpriced.list().map(item => [item.model, item]))
  const models: Array<Record<string, unknown>> = []
  for (const [model, candidates] of kernel.models) {
    const upstreams = unpricedUpstreams(price, model, candidates)
    const met = seen.get(model)
    seen.delete(model)
    if (!upstreams.length && !met) continue
    models.push({ model, upstreams, served: true, ...(met && { refused: met.refused, allowed: met.allowed, 'first-seen': new Date(met.first).toISOString(), 'last-seen': new Date(met.last).toISOString() }) })
  }
  // Met earlier, no longer served (a config change since).
  for (const met of seen.values()) models.push({ model: met.model, upstreams: met.upstreams, served: false, refused: met.refused, allowed: met.allowed, 'first-seen': new Date(met.first).toISOString(), 'last-seen': new Date(met.last).toISOString() })
  return {
    policy: policyOf(kernel.config),
    'keys-with-budget': clientKeysOf(kernel.config).filter(entry => entry.budget).map(entry => entry.name),
    models: models.sort((a, b) => String(a.model).localeCompare(String(b.model))),
  }
}

/**
 * `GET /v0/management/unpriced-models` (our addition): served models without a price, which keys with a
 * budget are refused (or, with `client-key-policy.unpriced-models: allow`, served at $0), with what this
 * instance met of them.
 */
export function addPolicyRoutes(kernel: ProxyKernel, guard: Guard, unpriced: UnpricedModels): void {
  addManagementRoute(kernel, guard, 'GET', '/unpriced-models', () => unpricedView(kernel, unpriced))
}
