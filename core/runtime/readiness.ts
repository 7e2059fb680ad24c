import type { ProxyKernel } from '../kernel/kernel.ts'
import { jsonResponse } from '../edge/respond.ts'

/**
 * `GET /readyz`: 503 `draining` once shutdown began; otherwise 200, `ready`, or `degraded` with the
 * reason while the shared store (Redis) is away: the instance still serves, on its local state. Back,
 * it stays `degraded` while a detail remains (what it counted meanwhile is still being written there).
 */
export function readiness(kernel: ProxyKernel): Response {
  if (kernel.services.draining) return jsonResponse({ status: 'draining' }, 503)
  const health = kernel.fleet.health()
  const details: Record<string, string> = {}
  for (const [name, detail] of kernel.services.readinessDetails ?? []) {
    const text = detail()
    if (text) details[name] = text
  }
  if (health.up && !Object.keys(details).length) return jsonResponse({ status: 'ready', instance: kernel.fleet.instanceId })
  if (health.up) return jsonResponse({ status: 'degraded', instance: kernel.fleet.instanceId, reason: 'shared store back; local state still being written there', since: new Date(health.since).toISOString(), details })
  return jsonResponse({ status: 'degraded', instance: kernel.fleet.instanceId, reason: `${health.reason ?? 'shared store unavailable'}; serving with local state`, since: new Date(health.since).toISOString(), ...(Object.keys(details).length && { details }) })
}
