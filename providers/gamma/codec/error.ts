import type { ProxyErrorInfo } from 'model-proxy'
import { errorTypeFor, httpErrorStatus } from 'model-proxy/kit/errors'
import { isObject, num, str, type Json } from './guards.ts'

/** `{error: {message, type, code, param}}`, typed by status as OpenAI does when no type is known. */
export function encodeError(error: ProxyErrorInfo): Json {
  return { error: { message: error.message, type: error.type ?? errorTypeFor(error.status), code: error.code ?? null, param: error.param ?? null } }
}

/**
 * What an error's code or type says, by the first of these any of them matches (OpenAI's codes are many
 * and open-ended: `context_length_exceeded`, `invalid_prompt`...). Overloaded is the messages API's 529.
 */
const namePatterns: Array<[RegExp, number]> = [
  [/overload/, 529],
  [/rate.?limit|quota|resource_exhausted|too_many_requests/, 429],
  [/auth|api_key/, 401],
  [/permission/, 403],
  [/not_found/, 404],
  [/^invalid|context_length|too_large|too_small|unsupported/, 400],
]

/**
 * The status a responses error stands for where no HTTP status says it (a stream's `error` event or
 * `response.failed`, a body sent with a 200): a numeric code that is an HTTP error status, else what its
 * code or type says (a client's invalid request stays its 400), else 500: the server failed.
 */
export function statusForResponsesError(error: { code?: unknown; type?: unknown }): number {
  const code = httpErrorStatus(error.code)
  if (code) return code
  const names = [str(error.code), str(error.type)].filter(name => name !== undefined).map(name => name.toLowerCase())
  return namePatterns.find(([pattern]) => names.some(name => pattern.test(name)))?.[1] ?? 500
}

const codeOf = (value: unknown) => str(value) ?? (num(value) === undefined ? undefined : String(value))

function fromJson(status: number, value: unknown, fallback: string): ProxyErrorInfo {
  if (typeof value === 'string') return { status, message: value.trim().slice(0, 500) || fallback, type: errorTypeFor(status) }
  const body: Json = isObject(value) ? value : {}
  // `{error:{...}}` (API), `{response:{error}}` (a failed response), `{detail}` (some gateways), or flat.
  const nested = isObject(body.error) ? body.error : isObject(body.response) && isObject(body.response.error) ? body.response.error : body
  const message = str(nested.message) ?? str(body.error) ?? str(body.detail) ?? str(body.message) ?? fallback
  // A stream's flat `error` event: its `type` names the event, not the error.
  const type = nested === body && body.type === 'error' ? undefined : str(nested.type)
  const info: ProxyErrorInfo = { status, message, type: type ?? errorTypeFor(status) }
  const code = codeOf(nested.code)
  if (code !== undefined) info.code = code
  return info
}

/** Any upstream error body (parsed JSON, JSON text, plain text) -> ProxyErrorInfo. Never throws. */
export function decodeError(status: number, body: unknown): ProxyErrorInfo {
  const fallback = `upstream returned ${status}`
  if (typeof body !== 'string') return fromJson(status, body, fallback)
  try {
    return fromJson(status, JSON.parse(body), fallback)
  } catch {
    return fromJson(status, body, fallback)
  }
}
