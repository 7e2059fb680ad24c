import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMcpHandler, Server } from '@modelcontextprotocol/server'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { gatewayClient, until } from './servers.ts'

/**
 * MCP servers of the stateless revision (2026-07-28) behind the gateway: one that serves only that
 * revision (SDK 2, `legacy: 'reject'`) and one that serves both. The gateway negotiates over Streamable
 * HTTP, so both are fronted; the 2025-only servers of the other tests still connect by `initialize`.
 */
let proxy: TestProxy
const fronts: MockUpstream[] = []
let extraTool = false
const served: string[] = []

/** A small SDK 2 server: `echo` (and `shout` once added), its list changes told to listen streams. */
function serverFactory() {
  const server = new Server({ name: 'modern-upstream', version: '1' }, { capabilities: { tools: { listChanged: true } } })
  server.setRequestHandler('tools/list', () => ({
    tools: [
      { name: 'echo', description: 'says it back', inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } } },
      ...(extraTool ? [{ name: 'shout', inputSchema: { type: 'object' as const } }] : []),
    ],
  }))
  server.setRequestHandler('tools/call', (request) => ({ content: [{ type: 'text' as const, text: `${request.params.name}: ${JSON.stringify(request.params.arguments)}` }] }))
  return server
}

async function modernUpstream(legacy: 'reject' | 'stateless') {
  const handler = createMcpHandler(() => serverFactory(), { legacy })
  const front = await startMockUpstream(async (request) => {
    served.push(`${legacy} ${request.headers.get('mcp-protocol-version') ?? '-'}`)
    return handler.fetch(request)
  })
  fronts.push(front)
  return { url: `${front.url}/mcp`, handler }
}

let onlyModern: Awaited<ReturnType<typeof modernUpstream>>

beforeAll(async () => {
  onlyModern = await modernUpstream('reject')
  const dual = await modernUpstream('stateless')
  proxy = await startTestProxy({ 'api-keys': ['k'], 'remote-management': { 'secret-key': 'manage' }, 'mcp-servers': [{ name: 'modern', url: onlyModern.url }, { name: 'dual', url: dual.url }] })
  await until(() => [...proxy.proxy.kernel.services.mcpGateway!.servers.values()].every(server => server.state === 'up'), 20_000)
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  for (const front of fronts) await front.close()
})

describe('the gateway in front of servers of the 2026-07-28 revision', () => {
  it('connects in that revision, lists and calls their tools for a client of either era', async () => {
    const servers = proxy.proxy.kernel.services.mcpGateway!.servers
    expect(servers.get('modern')!.protocolVersion).toBe('2026-07-28')
    expect(servers.get('dual')!.protocolVersion).toBe('2026-07-28')
    const client = await gatewayClient(proxy.url, 'k')
    try {
      const { tools } = await client.listTools()
      expect(tools.map(tool => tool.name)).toEqual(expect.arrayContaining(['modern__echo', 'dual__echo']))
      const result = await client.callTool({ name: 'modern__echo', arguments: { text: 'hi' } })
      expect(result.content).toEqual([{ type: 'text', text: 'echo: {"text":"hi"}' }])
    } finally {
      await client.close()
    }
    expect(served.some(line => line === 'reject 2026-07-28')).toBe(true)
    // The management API says which revision each server speaks.
    const listed = await fetch(`${proxy.url}/v0/management/mcp/servers`, { headers: { authorization: 'Bearer manage' } })
    expect(JSON.stringify(await listed.json())).toContain('"protocolVersion":"2026-07-28"')
  })

  it('hears a list change on its subscriptions/listen stream and lists the server again', async () => {
    extraTool = true
    onlyModern.handler.notify.toolsChanged()
    await until(() => proxy.proxy.kernel.services.mcpGateway!.servers.get('modern')!.lists.tools.some(tool => tool.name === 'shout'), 10_000)
    const client = await gatewayClient(proxy.url, 'k')
    try {
      expect((await client.listTools()).tools.map(tool => tool.name)).toContain('modern__shout')
    } finally {
      await client.close()
    }
  })
})
