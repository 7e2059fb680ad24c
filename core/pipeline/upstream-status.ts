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
 * (relays and generateContent put the HTTP status there), or the status a plugin's codec gave one.
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
