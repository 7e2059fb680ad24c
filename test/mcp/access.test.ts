import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { gatewayClient, referenceServers, until } from './servers.ts'

/** Per-key access: what a key may not call it does not see, and cannot call. */
let proxy: TestProxy
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-access-'))
  proxy = await startTestProxy({
    'client-keys': [{ key: 'key-alice', name: 'alice' }, { key: 'key-bob', name: 'bob' }, { key: 'key-carol', name: 'carol' }],
    'mcp-servers': referenceServers(dir).filter(server => server.name !== 'fs'),
    mcp: {
      bundles: { 'memory-read': ['memory__read_graph', 'memory__search_*'] },
      access: {
        alice: { 'deny-tools': ['everything__get-env', 'memory__delete_*'] },
        bob: { servers: ['memory'], bundles: ['memory-read'], 'calls-per-minute': 2 },
      },
    },
  })
  await until(() => [...proxy.proxy.kernel.services.mcpGateway!.servers.values()].every(server => server.state === 'up'))
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('access per client key', () => {
  it('a denied tool is neither listed nor callable', async () => {
    const alice = await gatewayClient(proxy.url, 'key-alice')
    const names = (await alice.listTools()).tools.map(tool => tool.name)
    expect(names).toContain('everything__echo')
    expect(names).not.toContain('everything__get-env')
    expect(names).not.toContain('memory__delete_entities')
    await expect(alice.callTool({ name: 'everything__get-env', arguments: {} })).rejects.toThrow(/unknown tool/)
    await expect(alice.callTool({ name: 'memory__delete_entities', arguments: { entityNames: ['x'] } })).rejects.toThrow(/unknown tool/)
    await alice.close()
  })

  it('a bundle gives exactly its tools; other servers are out of sight', async () => {
    const bob = await gatewayClient(proxy.url, 'key-bob')
    expect((await bob.listTools()).tools.map(tool => tool.name).sort()).toEqual(['memory__read_graph', 'memory__search_nodes'])
    expect((await bob.listResources()).resources.every(resource => resource.uri.startsWith('memory+'))).toBe(true)
    await expect(bob.callTool({ name: 'everything__echo', arguments: { message: 'x' } })).rejects.toThrow(/unknown tool/)
    await bob.close()
  })

  it('a key with no entry gets nothing once entries exist', async () => {
    const carol = await gatewayClient(proxy.url, 'key-carol')
    expect((await carol.listTools()).tools).toEqual([])
    await carol.close()
  })

  it('a key\'s tool-call rate is enforced', async () => {
    const bob = await gatewayClient(proxy.url, 'key-bob')
    // Two a minute (refusals by access count nothing).
    await bob.callTool({ name: 'memory__read_graph', arguments: {} })
    await bob.callTool({ name: 'memory__read_graph', arguments: {} })
    await expect(bob.callTool({ name: 'memory__read_graph', arguments: {} })).rejects.toThrow(/rate/)
    await bob.close()
  })

  it('a session belongs to the key that opened it', async () => {
    const alice = await gatewayClient(proxy.url, 'key-alice')
    const session = (alice.transport as { sessionId?: string }).sessionId!
    expect(session).toBeTruthy()
    const stolen = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer key-bob', 'mcp-session-id': session, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(stolen.status).toBe(404)
    await alice.close()
  })
})
