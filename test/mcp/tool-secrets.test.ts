import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { gatewayClient, until } from './servers.ts'

const bearer = 'mcp-bearer-0123456789/abc+def'
const header = 'mcp-header-9876543210'
let http: Server
let proxy: TestProxy

beforeAll(async () => {
  // Tools that quote what the server was sent: in a result, a tool error, a thrown error.
  http = createServer(async (req, res) => {
    const said = `${req.headers.authorization} ${req.headers['x-secret']} ${encodeURIComponent(String(req.headers.authorization))}`
    const mcp = new McpServer({ name: 'echo', version: '1' })
    mcp.registerTool('whoami', { description: 'who called', inputSchema: {} }, () => ({ content: [{ type: 'text', text: `you are ${said}` }] }))
    mcp.registerTool('oops', { description: 'a tool error', inputSchema: {} }, () => ({ isError: true, content: [{ type: 'text', text: `denied for ${said}` }] }))
    mcp.registerTool('boom', { description: 'throws', inputSchema: {} }, () => { throw new Error(`cannot with ${said}`) })
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => { void transport.close(); void mcp.close() })
    await mcp.connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>(resolve => http.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`
  proxy = await startTestProxy({ 'api-keys': ['k'], 'mcp-servers': [{ name: 'echo', url, 'bearer-token': bearer, headers: { 'x-secret': header } }] })
  // The server connects in the background.
  const client = await gatewayClient(proxy.url, 'k')
  await until(async () => (await client.listTools()).tools.length > 0)
  await client.close()
})
afterAll(async () => {
  await proxy.close()
  await new Promise(resolve => { http.closeAllConnections(); http.close(resolve) })
})

describe('MCP tool calls never hand a client the server\'s secrets', () => {
  it.each(['whoami', 'oops', 'boom'])('%s: the result quotes the token and header masked', async (tool) => {
    const client = await gatewayClient(proxy.url, 'k')
    try {
      const text = JSON.stringify(await client.callTool({ name: `echo__${tool}`, arguments: {} }))
      expect(text).toContain('mcp-...+def')
      expect(text).not.toContain('0123456789')
      expect(text).not.toContain('9876543210')
    } finally { await client.close() }
  })
})
