import type { ProxyErrorInfo } from 'model-proxy'
import { httpErrorStatus } from 'model-proxy/kit/errors'

const typeByStatus: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 402: 'billing_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 429: 'rate_limit_error', 529: 'overloaded_error' }
// A Map: a type such as `constructor` is no entry.
const statusByType = new Map([...Object.entries(typeByStatus).map(([status, type]): [string, number] => [type, Number(status)]), ['api_error', 500]])

export const messagesErrorType = (status: number) => typeByStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')

/**
 * The status a messages error stands for where no HTTP status says it (a stream's error event, a body
 * sent with a 200): a relay's numeric code when that is one; else the status the API answers its type
 * with (overloaded_error 529); a relay's own type by its wording (overloaded, rate limit or quota); else 502.
 */
export function statusForMessagesError(error: { type?: unknown; code?: unknown }): number {
  const type = typeof error.type === 'string' ? error.type.toLowerCase() : ''
  const status = httpErrorStatus(error.code) ?? statusByType.get(type)
  if (status) return status
  if (type.includes('overload')) return 529
  return /rate.?limit|quota|resource_exhausted|too_many_requests/.test(type) ? 429 : 502
}

/** `{type: 'error', error: {type, message}}`: the format's error body. */
export function encodeMessagesError(error: ProxyErrorInfo): Record<string, unknown> {
  return { type: 'error', error: { type: messagesErrorType(error.status), message: error.message } }
}

/** Any upstream error body -> ProxyErrorInfo. Never throws. */
export function decodeMessagesError(status: number, body: unknown): ProxyErrorInfo {
  const error = (body as { error?: unknown } | null)?.error
  if (error && typeof error === 'object') {
    const e = error as { type?: unknown; message?: unknown }
    return { status, message: String(e.message ?? ''), ...(typeof e.type === 'string' && { type: e.type }) }
  }
  if (typeof body === 'string') return { status, message: body.slice(0, 500) }
  return { status, message: body === undefined || body === null ? '' : JSON.stringify(body).slice(0, 500) }
}
