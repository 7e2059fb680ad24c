import { createRequire } from 'node:module'
import type * as Undici from 'undici'

/**
 * undici's `Agent` and request API without the rest of its index (fetch, WebSocket, EventSource, mock, cache,
 * retry, proxy: 1,130 K characters of source against 264 K, kept for the process's life): the requires and the
 * one assignment its index runs for them, so a change of undici's layout fails every upstream test at once.
 * Node's own `require`, here and in `loadUndici`, so that a later full load shares these modules.
 */
const require = createRequire(import.meta.url)
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object }
Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'))
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent

/** The whole of undici, loaded on the first call: for what the upstream path does not use (a proxy agent, `request` on the global dispatcher). */
export const loadUndici = (): typeof Undici => require('undici')
