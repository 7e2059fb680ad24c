/** Longest quota cooldown (spec: 30 minutes). */
export const maxCooldownMs = 30 * 60_000

/** Quota cooldown after the n-th consecutive failure: 1 s * 2^(n-1), capped; an upstream Retry-After wins. */
export function cooldownMs(failures: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, maxCooldownMs)
  return Math.min(1000 * 2 ** Math.max(0, failures - 1), maxCooldownMs)
}

/** Quota messages some providers send with a status other than 429. */
const quotaPattern = /quota|rate.?limit|resource.?exhausted|too many requests|usage limit/i

export function isQuotaError(status: number, message = ''): boolean {
  return status === 429 || ((status === 403 || status === 400 || status === 503) && quotaPattern.test(message))
}
