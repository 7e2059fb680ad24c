import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { gatewayClient, referenceServers, until } from './servers.ts'

/** Every gateway tool call counted per server and tool, and traced as a span. */
let proxy: TestProxy
let receiver: OtlpReceiver
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-observed-'))
  receiver = await startOtlpReceiver()
  proxy = await startTestProxy({
    'api-keys': ['seen-key'],
    'mcp-servers': [referenceServers(dir)[0]],
    metrics: { enable: true, path: '/metrics', 'require-key': false },
    otel: { endpoint: receiver.url },
  })
  await until(() => proxy.proxy.kernel.services.mcpGateway!.servers.get('everything')!.state === 'up')
}, 60_000)

afterAll(async () => {
  await receiver?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('tool calls, seen', () => {
  it('are counted per server and tool, and traced', async () => {
    const client = await gatewayClient(proxy.url, 'seen-key')
    await client.callTool({ name: 'everything__echo', arguments: { message: 'counted' } })
    await client.callTool({ name: 'everything__echo', arguments: { message: 'twice' } })
    await client.close()
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text()
    expect(metrics).toMatch(/proxy_mcp_tool_calls_total\{server="everything",tool="echo",outcome="ok"\} 2/)
    expect(metrics).toMatch(/proxy_mcp_server_up\{server="everything"\} 1/)
    await proxy.close()
    const spans = receiver.spans.filter(span => span.name === 'execute_tool everything__echo')
    expect(spans).toHaveLength(2)
    expect(spans[0].attributes['mcp.server.name']).toBe('everything')
    expect(spans[0].attributes['gen_ai.operation.name']).toBe('execute_tool')
  })
})
