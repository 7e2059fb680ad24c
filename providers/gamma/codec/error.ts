import type { ProxyErrorInfo } from 'model-proxy'
import { errorTypeFor } from 'model-proxy/kit/errors'
import { isObject, num, str, type Json } from './guards.ts'

/** `{error: {message, type, code, param}}`, typed by status as OpenAI does when no type is known. */
export function encodeError(error: ProxyErrorInfo): Json {
  return { error: { message: error.message, type: error.type ?? errorTypeFor(error.status), code: error.code ?? null, param: error.param ?? null } }
}

/** HTTP status for an error code met inside a stream (`error` event, `response.failed`), where no status exists. */
export function statusForCode(code: string | undefined): number {
  if (!code) return 500
  if (/rate_limit|quota/.test(code)) return 429
  if (/auth|api_key/.test(code)) return 401
  if (/^invalid|context_length|too_large|too_small|not_found|unsupported/.test(code)) return 400
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
