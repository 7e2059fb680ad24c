import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { firstModern } from './protocol-version.ts'
import { rpcError } from './rpc-error.ts'

/**
 * A 2025 batch's requests that reuse the id of an earlier request of the same batch, and the rest. The
 * SDK's transport keys a POST's answers by id: a second request with the same id took the first one's
 * place, and the answer stream ended once one answer per id was sent, so the other answer was lost (or
 * the first request got the second one's answer). Each such request gets its own error instead.
 */
export function withoutDuplicateIds(messages: JSONRPCMessage[]): { kept: JSONRPCMessage[]; duplicates: Array<string | number> } {
  const seen = new Set<string | number>()
  const kept: JSONRPCMessage[] = []
  const duplicates: Array<string | number> = []
  for (const message of messages) {
    if (isJSONRPCRequest(message)) {
      if (seen.has(message.id)) {
        duplicates.push(message.id)
        continue
      }
      seen.add(message.id)
    }
    kept.push(message)
  }
  return { kept, duplicates }
}

/** The answer to a request whose id an earlier request of its batch already had. */
export const duplicateIdError = (id: string | number) => ({
  jsonrpc: '2.0' as const,
  id,
  error: { code: -32600, message: `Invalid Request: duplicate id ${JSON.stringify(id)} in this batch (each request of a batch needs its own id)` },
})

/**
 * The 400 for a batch no revision takes: an empty one (JSON-RPC's own `Invalid Request`; it was
 * answered 202, as if its messages were taken), or one of revision 2026-07-28 or later, which has no
 * batches (one request per POST).
 */
export function batchRefusal(body: unknown, headerVersion: string | null): Response | undefined {
  if (!Array.isArray(body)) return undefined
  if (!body.length) return rpcError(400, -32600, 'Invalid Request: an empty batch (a batch holds one message or more)')
  if (headerVersion === null || headerVersion < firstModern) return undefined
  return rpcError(400, -32600, `Invalid Request: JSON-RPC batches are not part of protocol revision ${headerVersion}: send one request per POST`)
}
