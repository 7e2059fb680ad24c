import { JsonPartCache } from './json-part-cache.ts'
import { ParsedPartCache } from './parsed-part-cache.ts'
import type { CacheBudget } from './slot-cache.ts'

/**
 * The JSON layer's caches, one per process each, all keyed by client key (one client's bodies are never
 * compared with another's) and under one byte budget: past it, each evicts its own groups used longest
 * ago. What each one keeps and earns: README.md beside this file.
 */
export const jsonCacheBudget: CacheBudget = { maxBytes: 16 * 1024 * 1024, bytes: 0 }

/** Parsed parts of client bodies: a part whose bytes came before is copied, not parsed. */
export const clientPartCache = new ParsedPartCache(jsonCacheBudget)
/** Written parts of upstream bodies: a part equal to one written before is copied from its bytes. */
export const upstreamPartCache = new JsonPartCache(jsonCacheBudget)

const caches = { parse: clientPartCache, write: upstreamPartCache }

/** Sets the budget in bytes; 0 turns every cache off (then every body is read and written from scratch). */
export function setJsonCacheBudget(bytes: number): void {
  jsonCacheBudget.maxBytes = bytes
  if (bytes <= 0) for (const cache of Object.values(caches)) cache.clear()
}

export interface CacheCounts { hits: number; misses: number; bytes: number }
export interface JsonCacheStats extends CacheCounts { budget: number; byCache: Record<keyof typeof caches, CacheCounts> }

const counts = (cache: ParsedPartCache | JsonPartCache): CacheCounts => ({ hits: cache.hits, misses: cache.misses, bytes: cache.size })

/** Lookups that found something and that did not since the process started, and the bytes held: in all, and per cache. */
export function jsonCacheStats(): JsonCacheStats {
  const byCache = { parse: counts(clientPartCache), write: counts(upstreamPartCache) }
  const all = Object.values(byCache)
  const sum = (field: keyof CacheCounts) => all.reduce((total, each) => total + each[field], 0)
  return { hits: sum('hits'), misses: sum('misses'), bytes: sum('bytes'), budget: jsonCacheBudget.maxBytes, byCache }
}
