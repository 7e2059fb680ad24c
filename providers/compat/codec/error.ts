import type { ProxyErrorInfo } from 'model-proxy'
import { errorTypeFor, httpErrorStatus } from 'model-proxy/kit/errors'

/** The spec's client error body. */
export function encodeChatError(error: ProxyErrorInfo): Record<string, unknown> {
  return { error: { message: error.message, type: error.type ?? errorTypeFor(error.status), param: error.param ?? null, code: error.code ?? null } }
}

/**
 * What each error name stands for: OpenAI's types and codes, the messages types compatible relays pass
 * on (with that API's own status: overloaded 529), and the generateContent `status` names Gemini's
 * OpenAI-compatible endpoint gives. A Map: a name such as `constructor` is no entry.
 */
const nameStatus = new Map(Object.entries({
  invalid_request_error: 400, invalid_argument: 400, failed_precondition: 400,
  authentication_error: 401, invalid_api_key: 401, unauthenticated: 401,
  permission_error: 403, permission_denied: 403,
  not_found_error: 404, model_not_found: 404, not_found: 404,
  request_too_large: 413,
  rate_limit_error: 429, rate_limit_exceeded: 429, insufficient_quota: 429,
  server_error: 500, api_error: 500, internal: 500,
  unavailable: 503, deadline_exceeded: 504,
  overloaded_error: 529,
}))

/**
 * The status a chat error stands for where no HTTP status says it (a stream's error chunk, a body sent
 * with a 200): its numeric code when that is one; overload or rate-limit wording in any of its names
 * (relays coin names of their own); else its code's, type's or status's name; else 502.
 */
export function statusForChatError(error: { code?: unknown; type?: unknown; status?: unknown }): number {
  const code = httpErrorStatus(error.code)
  if (code) return code
  const names = [error.code, error.type, error.status].filter(name => typeof name === 'string').map(name => name.toLowerCase())
  if (names.some(name => name.includes('overload'))) return 529
  if (names.some(name => /rate.?limit|quota|resource_exhausted|too_many_requests/.test(name))) return 429
  return names.map(name => nameStatus.get(name)).find(status => status !== undefined) ?? 502
}

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
