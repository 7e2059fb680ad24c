/**
 * What the metrics plugin offers other plugins: the counter tally other plugins keep their own series with. Plugins import another plugin only
 * through its `api.ts` (test/architecture/plugin-boundaries.test.ts); everything else in its folder is private.
 */
export { CounterTally } from './tally.ts'
