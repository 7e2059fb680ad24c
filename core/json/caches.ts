import { TurnCache } from './turn-cache.ts'

/** The JSON layer's one cache, per process (turn-cache.ts, README.md). */
export const turnCache = new TurnCache()

/** Sets the budget in bytes; 0 turns the cache off (then every body is read and written from scratch). */
export function setJsonCacheBudget(bytes: number): void {
  turnCache.maxBytes = bytes
  if (bytes <= 0) turnCache.clear()
}

export interface CacheCounts { hits: number; misses: number; bytes: number }
export interface JsonCacheStats extends CacheCounts { budget: number; bySide: { parse: CacheCounts; write: CacheCounts } }

/** Hits, misses and bytes held: in all, and per side (`parse`: as read from clients, `write`: as written upstream). */
export function jsonCacheStats(): JsonCacheStats {
  const parse = turnCache.stats('read')
  const write = turnCache.stats('written')
  return { hits: parse.hits + write.hits, misses: parse.misses + write.misses, bytes: turnCache.size, budget: turnCache.maxBytes, bySide: { parse, write } }
}
