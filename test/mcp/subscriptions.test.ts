import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { gatewayClient, referenceServers, until } from './servers.ts'

/**
 * Resource subscriptions through the gateway (2025 sessions, and `subscriptions/listen` of the
 * 2026-07-28 revision), in front of the reference server (which
 * announces its subscribed resources as updated once `toggle-subscriber-updates` is on) and the
 * filesystem server (which offers no subscriptions).
 */
let proxy: TestProxy
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-subscriptions-'))
  proxy = await startTestProxy({ 'api-keys': ['k'], 'mcp-servers': referenceServers(dir).slice(0, 2) })
  await until(() => [...proxy.proxy.kernel.services.mcpGateway!.servers.values()].every(server => server.state === 'up'))
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function watching(): Promise<{ client: Client; updated: string[] }> {
  const client = await gatewayClient(proxy.url, 'k')
  const updated: string[] = []
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, notification => { updated.push(notification.params.uri) })
  return { client, updated }
}

describe('resource subscriptions, 2025 sessions', () => {
  it('a subscribed session hears its resource updated under the namespaced URI, on its GET stream; another session does not', async () => {
    const subscribed = await watching()
    const other = await watching()
    const uri = 'everything+demo://resource/static/document/architecture.md'
    try {
      expect(subscribed.client.getServerCapabilities()?.resources?.subscribe).toBe(true)
      expect(await subscribed.client.subscribeResource({ uri })).toEqual({})
      // The reference server announces every subscribed resource at once, then every 5 s, until toggled off.
      await subscribed.client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} })
      try {
        await until(() => subscribed.updated.length > 0, 12_000)
      } finally {
        await subscribed.client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} })
      }
      expect(subscribed.updated[0]).toBe(uri)
      expect(other.updated).toEqual([])
      expect(await subscribed.client.unsubscribeResource({ uri })).toEqual({})
    } finally {
      await subscribed.client.close()
      await other.client.close()
    }
  }, 30_000)

  it('answers what the server answers for a server without subscriptions, and refuses a URI of no server', async () => {
    const client = await gatewayClient(proxy.url, 'k')
    try {
      await expect(client.subscribeResource({ uri: `fs+file://${dir}` })).rejects.toThrow(/-32601/)
      await expect(client.subscribeResource({ uri: 'test://watched-resource' })).rejects.toThrow(/-32602.*unknown resource/)
      // The session keeps working.
      expect((await client.listResources()).resources.length).toBeGreaterThan(0)
    } finally {
      await client.close()
    }
  })
})

describe('resource subscriptions across a restart', () => {
  it('a server restarted by a config change is subscribed again to what the sessions hold', async () => {
    const subscribed = await watching()
    const uri = 'everything+demo://resource/static/document/features.md'
    const kernel = proxy.proxy.kernel
    const gateway = kernel.services.mcpGateway!
    try {
      await subscribed.client.subscribeResource({ uri })
      const before = gateway.servers.get('everything')
      const servers = (kernel.config['mcp-servers'] as Array<{ name: string }>).map(server => server.name === 'everything' ? { ...server, env: { RESTARTED: '1' } } : server)
      await kernel.applyConfig({ ...kernel.config, 'mcp-servers': servers } as never)
      await until(() => gateway.servers.get('everything') !== before && gateway.servers.get('everything')?.state === 'up')
      // A new process: only a subscription made again on it brings updates.
      await subscribed.client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} })
      try {
        await until(() => subscribed.updated.includes(uri), 12_000)
      } finally {
        await subscribed.client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} })
      }
    } finally {
      await subscribed.client.close()
    }
  }, 40_000)
})

describe('resource subscriptions, revision 2026-07-28', () => {
  it('a listen stream that names a resource holds it subscribed on its server while open, and hears it updated', async () => {
    const client = new ModernClient({ name: 'listen-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), { requestInit: { headers: { authorization: 'Bearer k' } } }))
    const updated: string[] = []
    client.setNotificationHandler('notifications/resources/updated', notification => { updated.push(notification.params.uri) })
    const uri = 'everything+demo://resource/static/document/extension.md'
    const everything = proxy.proxy.kernel.services.mcpGateway!.servers.get('everything')! as unknown as { subscribed: Set<string> }
    try {
      await expect(client.listen({ resourceSubscriptions: ['test://watched-resource'] })).rejects.toThrow(/unknown resource/)
      await client.listen({ resourceSubscriptions: [uri] })
      expect(everything.subscribed.has('demo://resource/static/document/extension.md')).toBe(true)
      await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} })
      try {
        await until(() => updated.length > 0, 12_000)
      } finally {
        await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} })
      }
      expect(updated[0]).toBe(uri)
    } finally {
      await client.close()
    }
    // The stream closed: the server's subscription ends with it.
    await until(() => !everything.subscribed.has('demo://resource/static/document/extension.md'), 5000)
  }, 30_000)
})
