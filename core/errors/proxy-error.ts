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

const typeOfStatus: Record<number, string> = { 401: 'authentication_error', 403: 'permission_error', 429: 'rate_limit_error' }
/** OpenAI-style error type for a status: the spec's generic client error body uses these. */
export const errorTypeFor = (status: number): string => typeOfStatus[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error')

/** The spec's generic body `{error: {message, type, code}}`: used where no format codec is registered. */
export function genericErrorBody(info: ProxyErrorInfo): Record<string, unknown> {
  return { error: { message: info.message, type: info.type ?? errorTypeFor(info.status), code: info.code ?? null } }
}

/** A body over `max-request-body-mb`: the same 413 wherever a body is read. */
export const bodyTooLarge = (limitBytes: number) => new ProxyError(413, `request body too large: the limit is ${Math.round(limitBytes / 1048576)} MB (max-request-body-mb)`, 'invalid_request_error', 'request_too_large')
