/**
 * What the routing plugin offers other plugins: route resolution, the chooser, session keys, affinity and rate-limit headroom (the route preview simulates with them). Plugins import another plugin only
 * through its `api.ts` (test/architecture/plugin-boundaries.test.ts); everything else in its folder is private.
 */
export type { Chooser } from './choose.ts'
export { resolveRoute } from './resolve.ts'
export { sessionKeyOf } from './session-key.ts'
export { AffinityStore } from './affinity.ts'
export { headroom } from './rate-limits.ts'
