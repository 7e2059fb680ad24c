/**
 * `model-proxy/kit/body`: the client body as the JSON layer keeps it (core/json/: its bytes, its lazily
 * parsed value) and the layer's cache statistics. Used by the recorder, client-keys, routing and metrics
 * plugins and the compat family.
 */

/** The client body: the handle routes read, and the shape routing sees without parsing the whole. */
export { ClientBody, type BodyShape } from '../json/index.ts'
/** The JSON layer's cache statistics (hits, misses, bytes kept), for /metrics. */
export { jsonCacheStats, type JsonCacheStats } from '../json/index.ts'
