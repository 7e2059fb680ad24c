import { randomUUID } from 'node:crypto'
import type { ToolCallRecord } from '../mcp/api.ts'
import type { BuiltRecord } from './build.ts'
import { RecordBlobs } from './packed.ts'
import type { StoredRecord } from './types.ts'

/** HTTP-like status of a tool call in the list: 200 done (a tool's own error included), 403 refused, 504 timeout, 502 failed. */
const statusOf = (outcome: ToolCallRecord['outcome']) => ({ ok: 200, tool_error: 200, refused: 403, timeout: 504, error: 502 })[outcome]

/**
 * An MCP gateway tool call as a flight record: format `mcp`, the model column is the namespaced tool,
 * the client request holds its arguments and the answer its result, both cut at the recorder's cap.
 * No upstream attempts: the server it went to is the `family` column.
 */
export function toolCallRecord(call: ToolCallRecord, context: { instance: string; cap: number }): BuiltRecord {
  const blobs = new RecordBlobs(context.cap)
  const tool = call.server ? `${call.server}__${call.tool}` : call.tool
  const status = statusOf(call.outcome)
  const answer = call.result ? JSON.stringify(call.result) : JSON.stringify({ error: call.error ?? call.outcome })
  const record: StoredRecord = {
    id: `mcp-${randomUUID()}`,
    time: call.startedAt,
    durationMs: call.durationMs,
    status,
    error: call.error ?? (call.outcome === 'tool_error' ? 'the tool reported an error' : undefined),
    model: tool,
    keyName: call.keyId,
    format: 'mcp',
    path: `/mcp tools/call ${tool}`,
    stream: false,
    family: call.server ? `mcp:${call.server}` : 'mcp',
    attemptCount: 0,
    instance: context.instance,
    client: {
      request: { method: 'tools/call', path: '/mcp', headers: {}, body: blobs.body(JSON.stringify({ name: tool, arguments: call.arguments ?? {} })) },
      response: { status, headers: {}, body: blobs.body(answer) },
    },
    attempts: [],
  }
  return { record, blobs, secrets: [] }
}
