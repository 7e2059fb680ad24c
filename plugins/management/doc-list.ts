import { isSeq, type Document } from 'yaml'
import { resolveSecretRefs } from 'model-proxy/kit/config'
import { ManagementError } from './respond.ts'

/**
 * The list at `key` as the file holds it at this write's turn in the queue, read as the proxy reads it:
 * references resolved and, with `parse`, an entry's defaults filled (what GET answered). A lookup by
 * value or index goes here, never to the running config: a write queued behind another, or after a hand
 * edit not yet reloaded, would find the entry where it was, and change or delete its neighbour.
 */
export function listIn(doc: Document, key: string, parse: (entry: unknown) => unknown = entry => entry): unknown[] {
  if (!isSeq(doc.get(key, true))) return []
  const items = (doc.toJS() as Record<string, unknown>)[key] as unknown[]
  return items.map(item => parse(resolveSecretRefs(item).data))
}

/**
 * `?index=N` as a position in `list`: a whole number written as one (an empty `?index=` is not 0), or
 * 404 `item not found`.
 */
export function indexIn(list: readonly unknown[], raw: unknown): number {
  const at = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isInteger(at) || at < 0 || at >= list.length) throw new ManagementError(404, 'item not found')
  return at
}
