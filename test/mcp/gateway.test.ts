import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { gatewayClient, referenceServers, until } from './servers.ts'

/** The gateway in front of the three reference servers from npm, reached through HTTP by the SDK's client. */
let proxy: TestProxy
let dir: string
let client: Client

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-'))
  writeFileSync(join(dir, 'notes.txt'), 'hello from the gateway\n')
  proxy = await startTestProxy({ 'api-keys': ['gateway-key'], 'mcp-servers': referenceServers(dir) })
  await until(() => [...proxy.proxy.kernel.services.mcpGateway!.servers.values()].every(server => server.state === 'up'))
  client = await gatewayClient(proxy.url, 'gateway-key')
}, 60_000)

afterAll(async () => {
  await client?.close()
  await proxy?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('/mcp', () => {
  it('lists every server\'s tools under its name', async () => {
    const { tools } = await client.listTools()
    const names = tools.map(tool => tool.name)
    expect(names).toContain('everything__echo')
    expect(names).toContain('fs__read_text_file')
    expect(names).toContain('memory__create_entities')
    expect(client.getServerVersion()?.name).toBe('model-proxy-mcp-gateway')
  })

  it('calls a tool on each server', async () => {
    const echo = await client.callTool({ name: 'everything__echo', arguments: { message: 'hi' } })
    expect(JSON.stringify(echo.content)).toContain('hi')
    const file = await client.callTool({ name: 'fs__read_text_file', arguments: { path: join(dir, 'notes.txt') } })
    expect(JSON.stringify(file.content)).toContain('hello from the gateway')
    await client.callTool({ name: 'memory__create_entities', arguments: { entities: [{ name: 'proxy', entityType: 'program', observations: ['fronts MCP servers'] }] } })
    const graph = await client.callTool({ name: 'memory__read_graph', arguments: {} })
    expect(JSON.stringify(graph)).toContain('fronts MCP servers')
  })

  it('passes progress notices through', async () => {
    const progress: number[] = []
    const result = await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 3 } }, undefined, {
      onprogress: notice => progress.push(notice.progress),
    })
    expect(result.isError).toBeFalsy()
    expect(progress.length).toBeGreaterThanOrEqual(2)
  })

  it('reads namespaced resources and prompts', async () => {
    const { resources } = await client.listResources()
    const first = resources.find(resource => resource.uri.startsWith('everything+'))!
    expect(first).toBeDefined()
    const read = await client.readResource({ uri: first.uri })
    expect(read.contents[0].uri).toBe(first.uri)
    const { prompts } = await client.listPrompts()
    const simple = prompts.find(prompt => prompt.name.startsWith('everything__'))!
    expect(simple).toBeDefined()
    // Argument completion, asked of the prompt's server under its own name.
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'everything__completable-prompt' }, argument: { name: 'department', value: 'En' } })
    expect(completed.completion.values).toContain('Engineering')
  })

  it('an unknown tool is an MCP error, and the server keeps serving', async () => {
    // An unknown tool is a protocol error (-32602), as the current revision asks.
    for (const name of ['everything__nope', 'nope']) await expect(client.callTool({ name, arguments: {} })).rejects.toThrow(/-32602.*unknown tool/)
    const echo = await client.callTool({ name: 'everything__echo', arguments: { message: 'still here' } })
    expect(JSON.stringify(echo.content)).toContain('still here')
  })

  it('refuses a client without a key, and a session of another key', async () => {
    const refused = await fetch(`${proxy.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
    expect(refused.status).toBe(401)
    expect((await refused.json()).error.message).toMatch(/API key/)
    const unknown = await fetch(`${proxy.url}/mcp`, { method: 'POST', headers: { authorization: 'Bearer gateway-key', 'mcp-session-id': 'made-up', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
    expect(unknown.status).toBe(404)
  })
})

describe('older clients', () => {
  it('speak the legacy SSE transport, at /mcp/sse and on /mcp itself', async () => {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js')
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
    for (const path of ['/mcp/sse', '/mcp']) {
      const legacy = new Client({ name: 'legacy-test', version: '1' })
      const headers = { authorization: 'Bearer gateway-key' }
      await legacy.connect(new SSEClientTransport(new URL(`${proxy.url}${path}`), {
        requestInit: { headers },
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers as Record<string, string>, ...headers } }) },
      }))
      const echo = await legacy.callTool({ name: 'everything__echo', arguments: { message: `legacy ${path}` } })
      expect(JSON.stringify(echo.content)).toContain(`legacy ${path}`)
      await legacy.close()
    }
  })
})

describe('without mcp-servers', () => {
  it('there is no /mcp until a server is configured, then there is', async () => {
    const bare = await startTestProxy({ 'api-keys': ['bare-key'] })
    try {
      const before = await fetch(`${bare.url}/mcp`, { method: 'POST', headers: { authorization: 'Bearer bare-key', 'content-type': 'application/json' }, body: '{}' })
      expect(before.status).toBe(404)
      const { validateConfig } = await import('../../core/config/validate.ts')
      await bare.proxy.kernel.applyConfig(validateConfig({ 'auth-dir': '/nonexistent-auth-dir', 'api-keys': ['bare-key'], 'mcp-servers': [referenceServers(dir)[0]] }))
      await until(() => bare.proxy.kernel.services.mcpGateway?.servers.get('everything')?.state === 'up')
      const later = await gatewayClient(bare.url, 'bare-key')
      expect((await later.listTools()).tools.map(tool => tool.name)).toContain('everything__echo')
      await later.close()
    } finally {
      await bare.close()
    }
  }, 60_000)
})
