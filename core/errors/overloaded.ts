import type { ProxyErrorInfo } from '../canonical/codec.ts'

/** The messages API's "overloaded" status: no other vendor sends it. */
const overloadedStatus = 529

/**
 * An overloaded upstream's error as every other vendor says one: 503. OpenAI's formats (chat completions,
 * responses) name it `service_unavailable_error`, code `server_is_overloaded`; generateContent's encoder
 * writes the 503 as `UNAVAILABLE`. Their SDKs and agents know 503 and retry it, a 529 they read as an
 * unknown status. Any other error is returned as it is.
 */
export function overloadedAsUnavailable(error: ProxyErrorInfo): ProxyErrorInfo {
  if (error.status !== overloadedStatus) return error
  const said = error.message ? `: ${error.message}` : ''
  return { status: 503, message: `the upstream is overloaded, try again later (it answered 529${said})`, type: 'service_unavailable_error', code: 'server_is_overloaded' }
}
