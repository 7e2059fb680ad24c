import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api'
import type { ToolCallRecord } from '../mcp/api.ts'

/** One CLIENT span per MCP gateway tool call (GenAI `execute_tool`), from its start to its end. */
export function mcpToolSpan(tracer: Tracer) {
  return (record: ToolCallRecord): void => {
    const span = tracer.startSpan(`execute_tool ${record.server}__${record.tool}`, {
      kind: SpanKind.CLIENT,
      startTime: record.startedAt,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': `${record.server}__${record.tool}`,
        'mcp.server.name': record.server,
        'mcp.tool.name': record.tool,
        'proxy.mcp.outcome': record.outcome,
        ...(record.resultBytes !== undefined && { 'proxy.mcp.result_bytes': record.resultBytes }),
      },
    })
    if (record.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: record.error ?? record.outcome })
    span.end(record.startedAt + record.durationMs)
  }
}
