import { Gauge, type Registry } from 'prom-client'
import { CounterTally } from '../metrics/api.ts'
import type { Gateway, ToolCallRecord } from './gateway.ts'

/** Per server and tool: calls by outcome, their seconds, and each server's health. Names are bounded by the servers' lists. */
export function createGatewayMetrics(registry: Registry | undefined, gateway: Gateway): (record: ToolCallRecord) => void {
  const tally = (name: string, help: string, labels: string[]) => {
    const metric = new CounterTally(name, help, labels)
    registry?.registerMetric(metric as never)
    return metric
  }
  const calls = tally('proxy_mcp_tool_calls_total', 'MCP gateway tool calls by server, tool and outcome (ok, tool_error, error, refused, timeout).', ['server', 'tool', 'outcome'])
  const seconds = tally('proxy_mcp_tool_call_seconds_total', 'Seconds spent in MCP gateway tool calls, by server and tool (divide by the calls for the mean).', ['server', 'tool'])
  if (registry) {
    new Gauge({
      name: 'proxy_mcp_server_up',
      help: 'Whether an MCP server behind the gateway is connected (1) or down/starting (0).',
      labelNames: ['server'],
      registers: [registry],
      collect() {
        this.reset()
        for (const server of gateway.servers.values()) this.set({ server: server.name }, server.state === 'up' ? 1 : 0)
      },
    })
  }
  return (record) => {
    // A refused name may be anything a client sent: counted without it.
    const tool = record.outcome === 'refused' ? '' : record.tool
    calls.inc([record.server, tool, record.outcome])
    seconds.inc([record.server, tool], record.durationMs / 1000)
  }
}
