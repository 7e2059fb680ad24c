/**
 * What the websocket plugin offers other plugins: the responses-chain expansion the HTTP `previous_response_id` path shares. Plugins import another plugin only
 * through its `api.ts` (test/architecture/plugin-boundaries.test.ts); everything else in its folder is private.
 */
export { inputItems } from './response-chain.ts'
