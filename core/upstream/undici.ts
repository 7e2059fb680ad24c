import { createRequire } from 'node:module'
import type * as Undici from 'undici'

/**
 * undici's `Agent` with its request API, without the rest of undici's index: the index also loads fetch,
 * WebSocket, EventSource, the mock, cache, retry and proxy layers (1,130 K characters of source against
 * 264 K, measured as the files `require.cache` holds; V8 keeps every loaded module's source for the
 * process's life), none of which the upstream path uses. These are the requires undici's index runs for
 * `Agent` and the request API, and its one assignment (every dispatcher gets `request`, `stream`,
 * `pipeline`, `connect` and `upgrade`). A change of undici's layout fails every upstream test at once.
 * Node's own `require`, here and in `loadUndici`, so that a later full load shares these modules.
 */
const require = createRequire(import.meta.url)
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object }
Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'))
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent

/** The whole of undici, loaded on the first call: for what the upstream path does not use (a proxy agent, `request` on the global dispatcher). */
export const loadUndici = (): typeof Undici => require('undici')
