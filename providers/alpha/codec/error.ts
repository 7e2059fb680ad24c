import type { ProxyErrorInfo } from 'model-proxy'

const statusNames: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 402: 'FAILED_PRECONDITION', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 413: 'INVALID_ARGUMENT', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 502: 'UNAVAILABLE', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED' }
const statusByName: Record<string, number> = { INVALID_ARGUMENT: 400, FAILED_PRECONDITION: 400, UNAUTHENTICATED: 401, PERMISSION_DENIED: 403, NOT_FOUND: 404, RESOURCE_EXHAUSTED: 429, INTERNAL: 500, UNAVAILABLE: 503, DEADLINE_EXCEEDED: 504 }

/** `{error: {code, message, status}}`: the format's error body. */
export function encodeGenerateError(error: ProxyErrorInfo): Record<string, unknown> {
  return { error: { code: error.status, message: error.message, status: statusNames[error.status] ?? (error.status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT') } }
}

export const statusForGenerateError = (name: unknown, code: unknown) => typeof code === 'number' ? code : statusByName[String(name)] ?? 502

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
