import type { ProxyErrorInfo } from 'model-proxy'

const typeByStatus: Record<number, string> = { 400: 'invalid_request_error', 401: 'authentication_error', 402: 'billing_error', 403: 'permission_error', 404: 'not_found_error', 413: 'request_too_large', 429: 'rate_limit_error', 529: 'overloaded_error' }
const statusByType: Record<string, number> = Object.fromEntries(Object.entries(typeByStatus).map(([status, type]) => [type, Number(status)]))

export const messagesErrorType = (status: number) => typeByStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
export const statusForMessagesError = (type: unknown) => statusByType[String(type)] ?? (type === 'api_error' ? 500 : 502)

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
