import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { referenceServers, gatewayClient, until } from './servers.ts'
import { managementSecret, startManagedProxy, type ManagedProxy } from '../management/helpers.ts'

/** The management API of the gateway's servers: health, tools and who may call them, enable/disable a tool. */
let managed: ManagedProxy
const headers = { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }
const api = (path: string, init: RequestInit = {}) => fetch(`${managed.proxy.url}/v0/management${path}`, { ...init, headers })

beforeAll(async () => {
  const everything = { ...referenceServers('/tmp')[0] }
  managed = await startManagedProxy(stringify({
    host: '127.0.0.1',
    'remote-management': { 'secret-key': managementSecret },
    'client-keys': [{ key: 'key-ops', name: 'ops' }, { key: 'key-dev', name: 'dev' }],
    'mcp-servers': [everything, { name: 'remote', url: 'http://127.0.0.1:9/mcp?token=hidden-token', 'bearer-token': 'upstream-secret' }],
    mcp: { access: { ops: {}, dev: { 'deny-tools': ['everything__get-env'] } } },
    recorder: { mode: 'all' },
  }))
  await until(() => managed.proxy.proxy.kernel.services.mcpGateway!.servers.get('everything')!.state === 'up')
}, 60_000)

afterAll(async () => { await managed?.close() })

describe('/v0/management/mcp', () => {
  it('lists servers with their health and no secrets', async () => {
    const answer = await api('/mcp/servers')
    expect(answer.status).toBe(200)
    const text = await answer.text()
    expect(text).not.toContain('upstream-secret')
    expect(text).not.toContain('hidden-token')
    const { servers } = JSON.parse(text)
    expect(servers.find((server: any) => server.name === 'everything')).toMatchObject({ state: 'up', transport: 'stdio' })
    const remote = servers.find((server: any) => server.name === 'remote')
    expect(remote.state).not.toBe('up')
    expect(remote.where).toBe('http://127.0.0.1:9')
  })

  it('shows which keys may call each tool', async () => {
    const { tools } = await (await api('/mcp/servers/everything/tools')).json()
    expect(tools.find((tool: any) => tool.name === 'echo').keys).toEqual(['ops', 'dev'])
    expect(tools.find((tool: any) => tool.name === 'get-env').keys).toEqual(['ops'])
  })

  it('disables a tool for everyone (in the config file), and enables it again', async () => {
    const client = await gatewayClient(managed.proxy.url, 'key-ops')
    expect((await api('/mcp/servers/everything/tools/echo', { method: 'PUT', body: JSON.stringify({ enabled: false }) })).status).toBe(200)
    expect(managed.yaml()['mcp-servers'][0]['disabled-tools']).toEqual(['echo'])
    expect((await client.listTools()).tools.map(tool => tool.name)).not.toContain('everything__echo')
    await expect(client.callTool({ name: 'everything__echo', arguments: { message: 'x' } })).rejects.toThrow(/unknown tool/)
    expect((await api('/mcp/servers/everything/tools/echo', { method: 'PUT', body: JSON.stringify({ enabled: true }) })).status).toBe(200)
    expect((await client.listTools()).tools.map(tool => tool.name)).toContain('everything__echo')
    await client.close()
  })

  it('two tools disabled at once both stay disabled', async () => {
    // Each write once built the list from the config read before its turn in the queue: the last one won.
    const toggle = (tool: string, enabled: boolean) => api(`/mcp/servers/everything/tools/${tool}`, { method: 'PUT', body: JSON.stringify({ enabled }) }).then(answer => answer.status)
    expect(await Promise.all([toggle('echo', false), toggle('add', false)])).toEqual([200, 200])
    expect([...managed.yaml()['mcp-servers'][0]['disabled-tools']].sort()).toEqual(['add', 'echo'])
    expect(await Promise.all([toggle('echo', true), toggle('add', true)])).toEqual([200, 200])
    expect(managed.yaml()['mcp-servers'][0]['disabled-tools'] ?? []).toEqual([])
  })

  it('puts every tool call in the flight recorder: arguments, result, latency', async () => {
    const client = await gatewayClient(managed.proxy.url, 'key-dev')
    await client.callTool({ name: 'everything__echo', arguments: { message: 'on the record' } })
    await client.close()
    let found: any
    await until(async () => {
      const { requests } = await (await api('/requests')).json() as { requests: any[] }
      found = requests?.find(record => record.format === 'mcp' && record.model === 'everything__echo')
      return found !== undefined
    }, 5000)
    expect(found).toMatchObject({ status: 200, keyName: 'dev', family: 'mcp:everything' })
    const record = await (await api(`/requests/${found.id}`)).json()
    expect(record.client.request.body.text).toContain('on the record')
    expect(record.client.response.body.text).toContain('Echo: on the record')
  })

  it('refuses without the management secret', async () => {
    expect((await fetch(`${managed.proxy.url}/v0/management/mcp/servers`)).status).toBe(401)
  })
})
