import type { Storage } from 'unstorage'
import { inputItems } from '../websocket/api.ts'

/**
 * `previous_response_id` over HTTP for responses that the proxy itself produced from another format
 * (the responses vendor keeps its own answers; the other vendors keep nothing). Each such answer is kept
 * as the full conversation that led to it plus its output items, so a later request that names it is
 * expanded into a stateless one every family understands. Kept in the shared storage: any instance can
 * expand it.
 */
const prefix = 'response-chain:'
/** How long an answer stays referable (the vendor keeps them longer; this bounds the store). */
export const chainTtlSeconds = 24 * 3600

type Body = Record<string, unknown>

/** The stored conversation of a response id, or undefined when this proxy has none. */
export async function loadChain(storage: Storage, id: string): Promise<unknown[] | undefined> {
  const items = await storage.getItem<unknown[]>(prefix + id)
  return Array.isArray(items) ? items : undefined
}

/** A body naming a stored response -> the same request with the whole conversation in `input`. */
export function expandBody(body: Body, items: unknown[]): Body {
  const { previous_response_id: _previous, ...rest } = body
  return { ...rest, input: [...items, ...inputItems(body.input)] }
}

/** Keep `response` (a response object) after the request `body` (already expanded) that produced it. */
export async function saveChain(storage: Storage, body: Body, response: Body): Promise<void> {
  if (typeof response.id !== 'string' || response.status !== 'completed' && response.status !== 'incomplete') return
  const output = Array.isArray(response.output) ? response.output : []
  await storage.setItem(prefix + response.id, [...inputItems(body.input), ...output], { ttl: chainTtlSeconds })
}
