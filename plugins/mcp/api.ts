/**
 * What the MCP gateway plugin offers other plugins: the shape of a finished tool call (recorder, traces)
 * and the `mcpToolCall` observers service it is announced on. Plugins import another plugin only
 * through its `api.ts` (test/architecture/plugin-boundaries.test.ts).
 */
export type { ToolCallRecord } from './gateway.ts'
import type { ToolCallRecord } from './gateway.ts'
import type { Gateway } from './gateway.ts'

declare module 'model-proxy' {
  interface ProxyServices {
    /** The MCP gateway (plugins/mcp): its servers and their tools, for the tool loop and management. */
    mcpGateway?: Gateway
    /** Observers of finished gateway tool calls (recorder, traces, metrics); a failing one is logged, never felt. */
    mcpToolCall?: Array<(record: ToolCallRecord) => void>
  }
}
