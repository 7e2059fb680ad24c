import type { ProxyErrorInfo, WireFormat } from '../canonical/codec.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import { genericErrorBody, errorTypeFor, ProxyError } from '../errors/proxy-error.ts'
import { RequestValidationError } from '../canonical/errors.ts'
import { jsonResponse } from '../edge/respond.ts'
import { isErrorStatus } from '../kernel/hook-bus.ts'

/** Any thrown value -> what the client may see. Unknown errors become a 500 without internals. */
export function toErrorInfo(error: unknown): ProxyErrorInfo {
  // One module graph (core/plugin-host/module-graph.ts): every plugin throws the running core's own classes.
  if (error instanceof ProxyError) return error.info
  if (error instanceof RequestValidationError) {
    const { param, message } = error
    // OpenAI's own code for a field with a bad value, and the field by its path.
    return { status: 400, message, type: 'invalid_request_error', ...(param && { code: 'invalid_value', param }) }
  }
  // A refusal the hook bus passes on by its name (a plugin's own copy of the class): the client gets it too.
  if (isProxyErrorLike(error)) return { status: error.status, message: error.message, type: typeof error.type === 'string' ? error.type : errorTypeFor(error.status), code: typeof error.code === 'string' ? error.code : undefined }
  const status = (error as { status?: number, statusCode?: number })?.statusCode ?? (error as { status?: number })?.status
  if (status === 413) return { status, message: 'request body too large', type: errorTypeFor(413) }
  return { status: 500, message: 'internal server error', type: 'server_error' }
}

/** Named ProxyError, with a status a client may get as an error and a message: what core/kernel/hook-bus.ts lets through. */
function isProxyErrorLike(error: unknown): error is { status: number; message: string; type?: unknown; code?: unknown } {
  try {
    const { name, status, message } = (error ?? {}) as { name?: unknown; status?: unknown; message?: unknown }
    return name === 'ProxyError' && isErrorStatus(status) && typeof message === 'string'
  } catch {
    return false
  }
}

/**
 * The error as the client's format says it (`error.forClient` of its codec: a status its vendor never sends
 * becomes the one it does); what else the failure carries (Retry-After) is kept.
 */
export function clientErrorInfo<T extends ProxyErrorInfo>(kernel: ProxyKernel, format: WireFormat | undefined, info: T): T {
  const forClient = format ? kernel.formats.get(format)?.error.forClient : undefined
  return forClient ? { ...info, ...forClient(info) } : info
}

/** An error body in the wire format the client speaks (falls back to the spec's generic body). */
export function errorBody(kernel: ProxyKernel, format: WireFormat | undefined, info: ProxyErrorInfo): unknown {
  const codec = format ? kernel.formats.get(format) : undefined
  return codec ? codec.error.encode(info) : genericErrorBody(info)
}

/** An error response in the wire format the client speaks. */
export function errorResponse(kernel: ProxyKernel, format: WireFormat | undefined, error: ProxyErrorInfo): Response {
  const info = clientErrorInfo(kernel, format, error)
  return jsonResponse(errorBody(kernel, format, info), info.status)
}
