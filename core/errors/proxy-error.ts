import type { ProxyErrorInfo } from '../canonical/codec.ts'

/** An error that becomes a client response in the client's own format (see core/edge/respond.ts). */
export class ProxyError extends Error {
  constructor(readonly status: number, message: string, readonly type?: string, readonly code?: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'ProxyError'
  }

  get info(): ProxyErrorInfo {
    return { status: this.status, message: this.message, type: this.type ?? errorTypeFor(this.status), code: this.code }
  }
}

/** OpenAI-style error type for a status: the spec's generic client error body uses these. */
export function errorTypeFor(status: number): string {
  if (status === 400 || status === 413 || status === 404 || status === 422) return 'invalid_request_error'
  if (status === 401) return 'authentication_error'
  if (status === 403) return 'permission_error'
  if (status === 429) return 'rate_limit_error'
  return status >= 500 ? 'server_error' : 'invalid_request_error'
}

/** The spec's generic body `{error: {message, type, code}}`: used where no format codec is registered. */
export function genericErrorBody(info: ProxyErrorInfo): Record<string, unknown> {
  return { error: { message: info.message, type: info.type ?? errorTypeFor(info.status), code: info.code ?? null } }
}

/** A body over `max-request-body-mb`: the same 413 wherever a body is read. */
export const bodyTooLarge = (limitBytes: number) => new ProxyError(413, `request body too large: the limit is ${Math.round(limitBytes / 1048576)} MB (max-request-body-mb)`, 'invalid_request_error', 'request_too_large')
