/** The byte-level JSON layer: the one entry everything outside core/json/ imports (README.md: its three groups, what each piece earns). */
export { ClientBody, parseJsonObject } from './client-body.ts'
export type { BodyShape } from './body-scan.ts'
export { maxJsonDepth, jsonDeeperThan, valueDeeperThan } from './json-depth.ts'
export { JsonBody } from './json-body.ts'
export { joined, sliced } from './derived-strings.ts'
export { jsonCacheStats, type JsonCacheStats } from './turn-cache.ts'
