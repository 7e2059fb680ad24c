import type { ProxyErrorInfo } from 'model-proxy'
import { errorTypeFor } from 'model-proxy/kit/errors'

/** The spec's client error body. */
export function encodeChatError(error: ProxyErrorInfo): Record<string, unknown> {
  return { error: { message: error.message, type: error.type ?? errorTypeFor(error.status), param: error.param ?? null, code: error.code ?? null } }
}

const typeStatus: Record<string, number> = {
  invalid_request_error: 400, authentication_error: 401, permission_error: 403, not_found_error: 404,
  rate_limit_error: 429, insufficient_quota: 429, server_error: 500, api_error: 500, overloaded_error: 503,
}
export const statusForErrorType = (type: unknown) => typeStatus[String(type)] ?? 502

/** Any upstream error body -> ProxyErrorInfo. Never throws. */
export function decodeChatError(status: number, body: unknown): ProxyErrorInfo {
  const error = (body as { error?: unknown } | null)?.error
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; type?: unknown; code?: unknown }
    return { status, message: String(e.message ?? ''), ...(typeof e.type === 'string' && { type: e.type }), ...(e.code !== undefined && e.code !== null && { code: String(e.code) }) }
  }
  if (typeof error === 'string') return { status, message: error }
  if (typeof body === 'string') return { status, message: body.slice(0, 500) }
  return { status, message: body === undefined || body === null ? '' : JSON.stringify(body).slice(0, 500) }
}
