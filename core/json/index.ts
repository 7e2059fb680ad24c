/** The byte-level JSON layer: the one entry everything outside core/json/ imports (README.md: what each piece does and earns). */

// Reading a client body: what routing needs from its bytes, the whole object only when asked.
export { ClientBody, parseJsonObject } from './client-body.ts'
export { scanTopLevel, type BodyShape } from './body-scan.ts'
export { maxJsonDepth, jsonDeeperThan, valueDeeperThan } from './json-depth.ts'
export type { RawStrings } from './raw-strings.ts'

// Writing an upstream body: one handle, the client's bytes while nobody reads or replaces it.
export { JsonBody, type BodyWriting } from './json-body.ts'
export { jsonBytes } from './json-bytes.ts'
export { TurnCache } from './turn-cache.ts'
export { joined, sliced } from './derived-strings.ts'

// The one cache's statistics and budget (0: off).
export { jsonCacheStats, setJsonCacheBudget, type JsonCacheStats, type CacheCounts } from './turn-cache.ts'
