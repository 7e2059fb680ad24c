import type { TestProxy } from '../helpers/proxy-server.ts'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

const require = createRequire(import.meta.url)

/** The reference MCP servers from npm (devDependencies), as `mcp-servers` entries run over stdio. */
export function referenceServers(dir: string) {
  const bin = (name: string) => require.resolve(`@modelcontextprotocol/server-${name}/dist/index.js`)
  return [
    { name: 'everything', command: process.execPath, args: [bin('everything'), 'stdio'] },
    { name: 'fs', command: process.execPath, args: [bin('filesystem'), dir] },
    { name: 'memory', command: process.execPath, args: [bin('memory')], env: { MEMORY_FILE_PATH: `${dir}/memory.jsonl` } },
  ]
}

/** The SDK's client connected to a proxy's `/mcp` with a client key. */
export async function gatewayClient(url: string, key?: string, sessionId?: string): Promise<Client> {
  const client = new Client({ name: 'gateway-test', version: '1' })
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {}
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers }, sessionId }))
  return client
}

/** Waits until `check` holds (servers start in the background). */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

/** The repo's stdio MCP server (test/mcp/stdio-server.mjs), as a `mcp-servers` entry named `local`. */
export const stdioServerPath = fileURLToPath(new URL('./stdio-server.mjs', import.meta.url))
export const localStdioServer = { name: 'local', command: process.execPath, args: [stdioServerPath] }

/** Waits until the proxy's gateway has the server `name` up. */
export const serverUp = (proxy: TestProxy, name: string) => until(() => proxy.proxy.kernel.services.mcpGateway!.servers.get(name)?.state === 'up')
