import { base } from './api.ts'
import type { ChatCall } from './chat-formats.ts'
import { readKey } from './session.ts'

/** Headers that carry a client key in one format or another: the signed-in session replaces them. */
const keyHeaders = new Set(['authorization', 'x-api-key', 'x-goog-api-key'])

/**
 * The same client call sent as the signed-in operator: through `POST /v0/management/client-call`,
 * the management key standing for a client key. Pure apart from reading the session's key.
 */
export function asSession(call: ChatCall, managementKey = readKey()): ChatCall {
  const headers = Object.fromEntries(Object.entries(call.headers).filter(([name]) => !keyHeaders.has(name.toLowerCase())))
  return { ...call, path: `${base}/client-call?path=${encodeURIComponent(call.path)}`, headers: { ...headers, 'x-management-key': managementKey } }
}
