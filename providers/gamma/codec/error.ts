import type { ProxyErrorInfo } from 'model-proxy'
import { errorTypeFor, httpErrorStatus } from 'model-proxy/kit/errors'
import { isObject, num, str, type Json } from './guards.ts'

/** `{error: {message, type, code, param}}`, typed by status as OpenAI does when no type is known. */
export function encodeError(error: ProxyErrorInfo): Json {
  return { error: { message: error.message, type: error.type ?? errorTypeFor(error.status), code: error.code ?? null, param: error.param ?? null } }
}

/** Wording that says what the error is whichever name holds it. Overloaded is the messages API's 529. */
const wording: Array<[RegExp, number]> = [
  [/overload/, 529],
  [/rate.?limit|quota|resource_exhausted|too_many_requests/, 429],
]

/** What one name says, by the first pattern it matches (OpenAI's codes are many: `context_length_exceeded`, `invalid_prompt`...). */
const namePatterns: Array<[RegExp, number]> = [
  [/auth|api_key/, 401],
  [/permission/, 403],
  [/not_found/, 404],
  [/request_too_large/, 413],
  [/^invalid|context_length|too_large|too_small|unsupported/, 400],
  [/server_error|api_error/, 500],
]

/**
 * The status a responses error stands for where no HTTP status says it (a stream's `error` event or
 * `response.failed`, a body sent with a 200): a numeric code that is an HTTP error status; overload or
 * rate-limit wording in its code or type; else what its code, then its type says (a client's invalid
 * request stays its 400); else 500: the server failed.
 */
export function statusForResponsesError(error: { code?: unknown; type?: unknown }): number {
  const code = httpErrorStatus(error.code)
  if (code) return code
  const names = [str(error.code), str(error.type)].filter(name => name !== undefined).map(name => name.toLowerCase())
  const worded = wording.find(([pattern]) => names.some(name => pattern.test(name)))
  if (worded) return worded[1]
  for (const name of names) {
    const named = namePatterns.find(([pattern]) => pattern.test(name))
    if (named) return named[1]
  }
  return 500
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
