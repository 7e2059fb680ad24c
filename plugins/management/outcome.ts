/**
 * How a request ended, counted apart on the dashboard: a client mistake (bad JSON, unknown model, a
 * wrong key, over its own limit) is not the proxy failing. `served` = an upstream credential was tried.
 */
export type RequestOutcome = 'ok' | 'client' | 'upstream' | 'proxy'

/** Statuses an upstream answers when it (or the credential on it) is the trouble, not the request. */
const upstreamTrouble = new Set([401, 402, 403, 408, 429])

export function requestOutcome(status: number, served: boolean): RequestOutcome {
  if (status < 400) return 'ok'
  if (status === 499) return 'client'
  if (served) return status >= 500 || upstreamTrouble.has(status) ? 'upstream' : 'client'
  return status >= 500 ? 'proxy' : 'client'
}
