import type { ProxyErrorInfo } from 'model-proxy'
import { httpErrorStatus } from 'model-proxy/kit/errors'

// 529: a messages upstream's overloaded; the API says an overload as UNAVAILABLE.
const statusNames: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 402: 'FAILED_PRECONDITION', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 413: 'INVALID_ARGUMENT', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 502: 'UNAVAILABLE', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED', 529: 'UNAVAILABLE' }
// A Map: a name such as `constructor` is no entry.
const statusByName = new Map(Object.entries({ INVALID_ARGUMENT: 400, FAILED_PRECONDITION: 400, UNAUTHENTICATED: 401, PERMISSION_DENIED: 403, NOT_FOUND: 404, RESOURCE_EXHAUSTED: 429, INTERNAL: 500, UNAVAILABLE: 503, DEADLINE_EXCEEDED: 504 }))

/** `{error: {code, message, status}}`: the format's error body. */
export function encodeGenerateError(error: ProxyErrorInfo): Record<string, unknown> {
  return { error: { code: error.status, message: error.message, status: statusNames[error.status] ?? (error.status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT') } }
}

/**
 * The status a generateContent error stands for where no HTTP status says it (a stream's error chunk, a
 * body sent with a 200): its code, the API's own HTTP status, when it is one; else its status name's; else 502.
 */
export function statusForGenerateError(error: { code?: unknown; status?: unknown }): number {
  const name = typeof error.status === 'string' ? error.status.toUpperCase() : ''
  return httpErrorStatus(error.code) ?? statusByName.get(name) ?? 502
}

/** Any upstream error body (also `[{error}]`, as streams send) -> ProxyErrorInfo. Never throws. */
export function decodeGenerateError(status: number, body: unknown): ProxyErrorInfo {
  const item = Array.isArray(body) ? body[0] : body
  const error = (item as { error?: unknown } | null)?.error
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; status?: unknown }
    return { status, message: String(e.message ?? ''), ...(typeof e.status === 'string' && { code: e.status }) }
  }
  if (typeof body === 'string') return { status, message: body.slice(0, 500) }
  return { status, message: body === undefined || body === null ? '' : JSON.stringify(body).slice(0, 500) }
}
