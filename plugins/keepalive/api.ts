/**
 * What the keepalive plugin offers other plugins: its SSE comments while a stream is quiet, for a
 * stream a plugin answers itself, outside the pipeline's `before-response` (the MCP tool loop's).
 * Plugins import another plugin only through its `api.ts` (test/architecture/plugin-boundaries.test.ts).
 */
export { withSseKeepalive } from './sse-keepalive.ts'
