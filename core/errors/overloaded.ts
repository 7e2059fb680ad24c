import type { ProxyErrorInfo } from '../canonical/codec.ts'

/** The messages API's "overloaded" status: no other vendor sends it. */
const overloadedStatus = 529

/**
 * An overloaded upstream's error as OpenAI says one (chat completions, responses): 503
 * `service_unavailable_error`, code `server_is_overloaded`; its SDKs and agents know 503 and retry it, a
 * 529 they read as an unknown status. Any other error is returned as it is.
 */
export function overloadedAsUnavailable(error: ProxyErrorInfo): ProxyErrorInfo {
  if (error.status !== overloadedStatus) return error
  const said = error.message ? `: ${error.message}` : ''
  return { status: 503, message: `the upstream is overloaded, try again later (it answered 529${said})`, type: 'service_unavailable_error', code: 'server_is_overloaded' }
}
