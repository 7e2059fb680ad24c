/**
 * `model-proxy/kit/guards`: bounds against hostile or runaway input. Keys that would reach an object's
 * prototype, JSON nested too deep, request churn in long-lived maps, log floods. Used by the plugins
 * that take paths, JSON or names from clients (management, payload-rules, routing, websocket, recorder, pricing...).
 */

/** Keys that must never be followed or written (`__proto__`, `constructor`...), and an own-property read. */
export { isUnsafeKey, ownValue, unsafePathMessage, unsafePathSegment, unsafeSegment } from '../data/unsafe-keys.ts'
/** The nesting limit for JSON, and checks of a text or value against it. */
export { jsonDeeperThan, maxJsonDepth, valueDeeperThan } from '../json/index.ts'
/** A map for entries that come and go with requests in a long-lived map (no young-GC promotion chain). */
export { ChurnMap } from '../data/churn-map.ts'
/** Tasks one at a time per key (an address's login checks), other keys alongside. */
export { createKeyedQueue } from '../data/keyed-queue.ts'
/** Rate-limited log lines: a flood is cut, with a count of what was left out. */
export { createLogLimiter } from '../kernel/log-limit.ts'
