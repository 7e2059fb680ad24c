/**
 * `model-proxy/kit/body`: the client body as the JSON layer keeps it (its bytes, its lazily parsed
 * value, its plain-JSON copy) and the layer's cache statistics. Used by the recorder, payload-rules,
 * client-keys, routing and metrics plugins and the compat family. Grouped apart because the JSON layer
 * is being reworked: this file is where its names will change.
 */

/** The client body: the handle routes read, and the shape routing sees without parsing the whole. */
export { ClientBody } from '../http/client-route.ts'
export type { BodyShape } from '../http/body-scan.ts'
/** The client's bytes behind a parsed body; a lazy body's bytes, value and plain copy; a field added unparsed. */
export { bodySourceOf } from '../http/client-route.ts'
export { clientBytesOf, lazyJsonOf, plainJsonOf, withLeadingField } from '../http/lazy-json.ts'
/** Cache statistics (for metrics): the parsed-part caches and the scan memo. */
export { clientPartCache } from '../http/parsed-part-cache.ts'
export { clientScanMemo } from '../http/scan-memo.ts'
export { upstreamPartCache } from '../http/upstream.ts'
