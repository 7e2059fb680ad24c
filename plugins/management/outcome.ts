/**
 * How a request ended, counted apart on the dashboard: a client mistake (bad JSON, unknown model, a
 * wrong key, over its own limit) is not the proxy failing. `served` = an upstream credential was tried.
 */
export type RequestOutcome = 'ok' | 'client' | 'upstream' | 'proxy'

/** Statuses an upstream answers when it (or the credential on it) is the trouble, not the request. */
const upstreamTrouble = new Set([401, 402, 403, 408, 429])

/**
 * `broken`: a 499 that is a stream the upstream (or a hook's stream) failed after its 200, not one its
 * client left: the upstream's failure (`brokenStream` tells from an after-response context).
 */
export function requestOutcome(status: number, served: boolean, broken = false): RequestOutcome {
  if (status < 400) return 'ok'
  if (status === 499) return broken && served ? 'upstream' : 'client'
  if (served) return status >= 500 || upstreamTrouble.has(status) ? 'upstream' : 'client'
  return status >= 500 ? 'proxy' : 'client'
}

/** A stream that failed after its 200 for another reason than its client leaving (a 499 in the records). */
export const brokenStream = (ctx: { error?: string; status: number; clientLeft?: boolean }): boolean => Boolean(ctx.error) && ctx.status < 400 && !ctx.clientLeft
