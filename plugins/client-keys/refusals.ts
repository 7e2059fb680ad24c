import type { ProxyErrorInfo } from 'model-proxy'
import { shownModelName } from 'model-proxy/kit/models'
import type { ClientKeyEntry } from './schema.ts'
import type { Refusal } from './limit-types.ts'

export type RouteRefusal = ProxyErrorInfo & { retryAfter?: number }

/** A model outside the key's `models`: 403 (the key is fine, the model is not its to use). */
export const modelRefusal = (model: string): RouteRefusal => ({
  status: 403, message: `this API key may not use model ${JSON.stringify(shownModelName(model))}`, type: 'permission_error', code: 'model_not_allowed',
})

/** A model without a price for a key with a budget: 403 (a setting of the proxy's, not a retry, fixes it). */
export const unpricedRefusal = (message: string): RouteRefusal => ({ status: 403, message, type: 'permission_error', code: 'model_unpriced' })

/** The key's limits could not be checked and `client-key-policy.on-error` is `closed`: 503, retried by clients. */
export const limitsUnavailable = (why: string): RouteRefusal => ({
  status: 503, message: `this API key's limits cannot be checked now (${why}); try again shortly`, type: 'server_error', code: 'limits_unavailable', retryAfter: 5,
})

/**
 * A limit reached -> the client's error. Rate windows: 429 with Retry-After (the window's end). A spent
 * budget: 402 (SDKs retry 429 on their own, and a budget does not come back in seconds); Retry-After
 * says when the period starts over, and is absent for a `total` budget.
 */
export function limitRefusal(entry: ClientKeyEntry, refusal: Refusal): RouteRefusal {
  const retryAfter = refusal.retryAfterMs !== undefined ? Math.max(1, Math.ceil(refusal.retryAfterMs / 1000)) : undefined
  const after = retryAfter !== undefined ? { retryAfter } : {}
  switch (refusal.reason) {
    case 'rpm': return { status: 429, message: `rate limit reached for this API key: ${entry.rpm} requests per minute`, type: 'rate_limit_error', code: 'rate_limit_exceeded', ...after }
    case 'tpm': return { status: 429, message: `rate limit reached for this API key: ${entry.tpm} tokens per minute`, type: 'rate_limit_error', code: 'rate_limit_exceeded', ...after }
    case 'budget': {
      const budget = entry.budget!
      const period = budget.period === 'total' ? 'in total' : `this ${budget.period}`
      return { status: 402, message: `budget of this API key spent: $${budget.usd} ${period}`, type: 'insufficient_quota', code: 'budget_exceeded', ...after }
    }
  }
}
