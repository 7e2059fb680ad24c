import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { freePort } from '../helpers/redis-server.ts'
import { gatewayClient, until } from './servers.ts'

/** Remote MCP servers (Streamable HTTP and legacy SSE) behind the gateway, their secrets kept from clients. */
const require = createRequire(import.meta.url)
const children: ChildProcess[] = []
let proxy: TestProxy
let front: MockUpstream
const seenAuth: Array<string | null> = []

async function serveEverything(mode: 'streamableHttp' | 'sse'): Promise<string> {
  const port = await freePort()
  const child = spawn(process.execPath, [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), mode], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' })
  children.push(child)
  const url = `http://127.0.0.1:${port}`
  await until(async () => (await fetch(`${url}/${mode === 'sse' ? 'nothing' : 'mcp'}`).catch(() => undefined)) !== undefined, 20_000)
  return url
}

beforeAll(async () => {
  const [http, sse] = await Promise.all([serveEverything('streamableHttp'), serveEverything('sse')])
  // In front of the Streamable HTTP server: sees what the gateway sends (its bearer token).
  front = await startMockUpstream(async (request) => {
    seenAuth.push(request.headers.get('authorization'))
    const url = new URL(request.url)
    const headers = new Headers(request.headers)
    headers.delete('host')
    return fetch(`${http}${url.pathname}${url.search}`, { method: request.method, headers, body: request.method === 'POST' ? await request.text() : undefined })
  })
  proxy = await startTestProxy({
    'api-keys': ['remote-key'],
    'mcp-servers': [
      { name: 'remote', url: `${front.url}/mcp`, 'bearer-token': 'upstream-only-secret', headers: { 'x-team': 'core' } },
      { name: 'legacy', url: `${sse}/sse`, transport: 'sse' },
    ],
  })
  await until(() => [...proxy.proxy.kernel.services.mcpGateway!.servers.values()].every(server => server.state === 'up'), 30_000)
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  await front?.close()
  for (const child of children) child.kill('SIGKILL')
})

describe('remote MCP servers', () => {
  it('are reached over Streamable HTTP with the operator\'s token, and over legacy SSE', async () => {
    const client = await gatewayClient(proxy.url, 'remote-key')
    const names = (await client.listTools()).tools.map(tool => tool.name)
    expect(names).toContain('remote__echo')
    expect(names).toContain('legacy__echo')
    const viaHttp = await client.callTool({ name: 'remote__echo', arguments: { message: 'over http' } })
    expect(JSON.stringify(viaHttp.content)).toContain('over http')
    const viaSse = await client.callTool({ name: 'legacy__echo', arguments: { message: 'over sse' } })
    expect(JSON.stringify(viaSse.content)).toContain('over sse')
    expect(seenAuth).toContain('Bearer upstream-only-secret')
    // The token never reaches the gateway's client: not in tool lists, results or server info.
    const everything = JSON.stringify([await client.listTools(), await client.listResources(), client.getServerVersion(), client.getInstructions()])
    expect(everything).not.toContain('upstream-only-secret')
    await client.close()
  })
})
