/**
 * `model-proxy/kit/errors`: error bodies and status classification. A family answers errors in its own
 * client format with these; feature plugins (mcp, routing, websocket) answer what they refuse with them.
 * The errors to throw, `ProxyError` and `RequestValidationError`, are in `model-proxy`.
 */

/** The OpenAI-style error `type` for a status (`invalid_request_error`, `server_error`...). */
export { errorTypeFor } from '../errors/proxy-error.ts'
/** The generic error body `{error: {message, type, code}}`, for routes no format codec serves. */
export { genericErrorBody } from '../errors/proxy-error.ts'
/** The error for a body over the size limit (413). */
export { bodyTooLarge } from '../errors/proxy-error.ts'
/** An error as a response in the client's format, and any thrown value as the info that response needs. */
export { errorResponse, toErrorInfo } from '../pipeline/error-response.ts'
/** An upstream status as `ok`, `retry` (another credential, or this one later, may succeed) or `fail`. */
export { classifyUpstreamStatus } from '../pipeline/upstream-status.ts'
/** A number that is an HTTP error status (400-599), else undefined: an upstream error's numeric code, taken as it is. */
export { httpErrorStatus } from '../pipeline/upstream-status.ts'
/** An error for a request path, in the format that path serves (the generic body when none). */
export { pathErrorResponse } from '../errors/path-errors.ts'
/** The messages API's 529 (overloaded) as OpenAI says an overload (503 `server_is_overloaded`): a codec's `error.forClient`. */
export { overloadedAsUnavailable } from '../errors/overloaded.ts'
