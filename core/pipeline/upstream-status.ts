/**
 * Statuses after which another credential (or the same one later) may succeed (routing rule 9, plus quota
 * and auth). 529 is the messages API's "overloaded": a 5xx like 503, never the client's fault.
 */
const retryable = new Set([401, 403, 408, 429, 500, 502, 503, 504, 529])

export function classifyUpstreamStatus(status: number): 'ok' | 'retry' | 'fail' {
  // 0 = no answer at all (refused, reset, timed out): another credential may well answer.
  if (status === 0) return 'retry'
  if (status < 400) return 'ok'
  return retryable.has(status) ? 'retry' : 'fail'
}

/**
 * The value when it is an HTTP error status (a number 400-599), else undefined: an error's numeric code
 * (relays and generateContent put the HTTP status there) or a decoder's status, taken as it is.
 */
export const httpErrorStatus = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 400 && value < 600 ? value : undefined

/** `Retry-After` as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header
  if (!value) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}

/**
 * The status of an error an upstream sent with a 200 (a whole body, a stream's first event): its code
 * when that is an HTTP error status, 529 when it says overloaded, 429 when it says rate limit or quota
 * (whatever field the format names it in), else 502. Each is a failed attempt, never a charged answer.
 */
export function sentErrorStatus(error: Record<string, unknown>): number {
  const code = error.code
  if (typeof code === 'number' && code >= 400 && code < 600) return code
  // The code names the error more closely than the type (a responses error: type invalid_request_error, code overloaded).
  const names = [code, error.type, error.status].filter(name => typeof name === 'string') as string[]
  const text = names.join(' ')
  if (/overload/i.test(text)) return 529
  if (/rate.?limit|quota|resource_exhausted|too_many_requests/i.test(text)) return 429
  for (const name of names) {
    const status = errorNames[name.toLowerCase()]
    if (status) return status
  }
  return 502
}

/**
 * The error names the wire formats give (messages `type`, chat `type`/`code`, generateContent `status`)
 * and the status each family's own API answers them with: a request the client got wrong stays its 400.
 */
const errorNames: Record<string, number> = {
  invalid_request_error: 400, invalid_argument: 400, failed_precondition: 400,
  authentication_error: 401, invalid_api_key: 401, unauthenticated: 401,
  permission_error: 403, permission_denied: 403,
  not_found_error: 404, not_found: 404, model_not_found: 404,
  request_too_large: 413,
  rate_limit_error: 429, rate_limit_exceeded: 429, insufficient_quota: 429, resource_exhausted: 429,
  api_error: 500, server_error: 500, internal: 500,
  unavailable: 503, deadline_exceeded: 504,
  overloaded_error: 529,
}
