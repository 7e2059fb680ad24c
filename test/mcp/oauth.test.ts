import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { gatewayClient, until } from './servers.ts'
import { startMockAuthServer, startProtectedMcpServer, type MockAuthServer, type ProtectedMcpServer } from './oauth-servers.ts'
import { managementSecret, startManagedProxy, type ManagedProxy } from '../management/helpers.ts'

/** Remote MCP servers behind OAuth: the proxy holds the client, fetches and renews the token, clients never see it. */
let auth: MockAuthServer
let mcp: ProtectedMcpServer
let managed: ManagedProxy
const secrets = ['cs-held-by-proxy', 'cs-second-held', 'cs-wrong-guess', 'cs-sse-held']
const api = (path: string) => fetch(`${managed.proxy.url}/v0/management${path}`, { headers: { authorization: `Bearer ${managementSecret}` } })
const grantsOf = (clientSecret: string) => auth.grants.filter(grant => grant.clientSecret === clientSecret)
/** `${env:...}`: the secret is resolved by the config loader, not written in the config. */
const envReference = ['$', '{env:MCP_OAUTH_TEST_SECRET}'].join('')
const gateway = () => managed.proxy.proxy.kernel.services.mcpGateway!

beforeAll(async () => {
  auth = await startMockAuthServer([{ id: 'proxy', secret: secrets[0]! }, { id: 'proxy two', secret: secrets[1]! }, { id: 'proxy sse', secret: secrets[3]! }])
  mcp = await startProtectedMcpServer(auth)
  process.env.MCP_OAUTH_TEST_SECRET = secrets[0]
  managed = await startManagedProxy(stringify({
    host: '127.0.0.1',
    'remote-management': { 'secret-key': managementSecret },
    'api-keys': ['oauth-key'],
    recorder: { mode: 'all' },
    'mcp-servers': [
      { name: 'guarded', url: mcp.url, oauth: { 'token-url': `${auth.mock.url}/token`, 'client-id': 'proxy', 'client-secret': envReference, scope: 'tools.read tools.call' } },
      { name: 'discovered', url: mcp.url, oauth: { issuer: auth.mock.url, 'client-id': 'proxy two', 'client-secret': secrets[1], 'client-auth': 'body', audience: 'mcp-api', resource: false } },
      { name: 'legacy', url: mcp.sseUrl, transport: 'sse', oauth: { 'token-url': `${auth.mock.url}/token`, 'client-id': 'proxy sse', 'client-secret': secrets[3] } },
      { name: 'refused', url: mcp.url, oauth: { 'token-url': `${auth.mock.url}/token`, 'client-id': 'proxy', 'client-secret': secrets[2] } },
    ],
  }))
  await until(() => gateway().servers.get('guarded')!.state === 'up' && gateway().servers.get('discovered')!.state === 'up' && gateway().servers.get('legacy')!.state === 'up' && gateway().servers.get('refused')!.state === 'down', 30_000).catch((error: Error) => {
    throw new Error(`${error.message}: ${JSON.stringify([...gateway().servers.values()].map(server => [server.name, server.state, server.error]))}`)
  })
}, 60_000)

afterAll(async () => {
  await managed?.close()
  await mcp?.close()
  await auth?.mock.close()
  delete process.env.MCP_OAUTH_TEST_SECRET
})

describe('an OAuth client the proxy holds for a remote MCP server', () => {
  it('gets a token by the client credentials grant and lists and calls the server\'s tools with it', async () => {
    const client = await gatewayClient(managed.proxy.url, 'oauth-key')
    const names = (await client.listTools()).tools.map(tool => tool.name)
    expect(names).toEqual(expect.arrayContaining(['guarded__echo', 'discovered__echo']))
    expect(names).not.toContain('refused__echo')
    const result = await client.callTool({ name: 'guarded__echo', arguments: { message: 'with a token' } })
    expect(JSON.stringify(result.content)).toContain('echo: with a token')
    expect(JSON.stringify((await client.callTool({ name: 'discovered__echo', arguments: { message: 'found' } })).content)).toContain('echo: found')
    // The legacy SSE transport sends the token on its event stream and its posts alike.
    expect(JSON.stringify((await client.callTool({ name: 'legacy__echo', arguments: { message: 'over sse' } })).content)).toContain('echo: over sse')
    await client.close()

    // HTTP Basic client auth, the scope, and the server's URL as the resource.
    const [basic] = grantsOf(secrets[0]!)
    expect(basic!.clientId).toBe('proxy')
    expect(Object.fromEntries(basic!.form)).toEqual({ grant_type: 'client_credentials', scope: 'tools.read tools.call', resource: mcp.url })
    // Client auth in the body, the token endpoint found in the issuer's metadata, an audience, no resource.
    const [body] = grantsOf(secrets[1]!)
    expect(Object.fromEntries(body!.form)).toEqual({ grant_type: 'client_credentials', client_id: 'proxy two', client_secret: secrets[1], audience: 'mcp-api' })
    expect(mcp.seen.every(request => request.status === 200)).toBe(true)
  })

  it('keeps the token until shortly before it expires, then gets a new one before the server refuses it', async () => {
    const client = await gatewayClient(managed.proxy.url, 'oauth-key')
    const before = grantsOf(secrets[0]!).length
    await client.callTool({ name: 'guarded__echo', arguments: { message: 'cached' } })
    expect(grantsOf(secrets[0]!).length).toBe(before)
    // The next token lives 1 s: revoke the current one so the proxy takes a short-lived one.
    auth.lifetimeSeconds = 1
    for (const token of auth.tokens.keys()) mcp.revoked.add(token)
    await client.callTool({ name: 'guarded__echo', arguments: { message: 'short-lived' } })
    const refusals = mcp.seen.filter(request => request.status === 401).length
    const grants = grantsOf(secrets[0]!).length
    await new Promise(resolve => setTimeout(resolve, 1100))
    const after = await client.callTool({ name: 'guarded__echo', arguments: { message: 'renewed' } })
    expect(JSON.stringify(after.content)).toContain('echo: renewed')
    expect(grantsOf(secrets[0]!).length).toBe(grants + 1)
    expect(mcp.seen.filter(request => request.status === 401).length).toBe(refusals)
    auth.lifetimeSeconds = 3600
    await client.close()
  })

  it('on a 401 gets a new token once and sends the request again', async () => {
    const client = await gatewayClient(managed.proxy.url, 'oauth-key')
    await client.callTool({ name: 'guarded__echo', arguments: { message: 'warm' } })
    const grants = grantsOf(secrets[0]!).length
    const from = mcp.seen.length
    for (const token of auth.tokens.keys()) mcp.revoked.add(token)
    const result = await client.callTool({ name: 'guarded__echo', arguments: { message: 'after a 401' } })
    expect(result.isError).toBeFalsy()
    expect(JSON.stringify(result.content)).toContain('echo: after a 401')
    // One new token, however many requests were refused at once; each refused one sent once more with it.
    expect(grantsOf(secrets[0]!).length).toBe(grants + 1)
    const since = mcp.seen.slice(from)
    const refused = since.filter(request => request.status === 401)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.every(request => mcp.revoked.has(request.token!))).toBe(true)
    expect(since.filter(request => request.status === 200 && !mcp.revoked.has(request.token!)).length).toBeGreaterThanOrEqual(refused.length)
    await client.close()
  })

  it('a wrong client secret leaves the server down with a clear error that does not hold the secret', async () => {
    const refused = gateway().servers.get('refused')!
    expect(refused.error).toContain('invalid_client')
    expect(refused.error).toContain(`${auth.mock.url}/token`)
    expect(refused.error).not.toContain(secrets[2])
    const answer = await api('/mcp/servers/refused')
    expect(answer.status).toBe(200)
    const summary = await answer.json()
    expect(summary).toMatchObject({ state: 'down' })
    expect(summary.error).toMatch(/OAuth: the token endpoint .* refused the client credentials of proxy \(HTTP 401: invalid_client/)
    // Nor does a client calling its tool learn more than that it is unknown.
    const client = await gatewayClient(managed.proxy.url, 'oauth-key')
    const call = await client.callTool({ name: 'refused__echo', arguments: { message: 'x' } }).catch((error: Error) => error)
    expect(JSON.stringify(call, Object.getOwnPropertyNames(call))).not.toContain(secrets[2])
    await client.close()
  })

  it('shows no secret and no token in listings, management answers or the flight recorder', async () => {
    const client = await gatewayClient(managed.proxy.url, 'oauth-key')
    const seenByClient = JSON.stringify([await client.listTools(), client.getServerVersion(), client.getInstructions()])
    await client.close()
    await until(async () => ((await (await api('/requests')).json()) as { requests: unknown[] }).requests.length > 0, 5000)
    const records = await (await api('/requests')).json() as { requests: Array<{ id: string }> }
    const details = await Promise.all(records.requests.map(async record => (await api(`/requests/${record.id}`)).text()))
    const everything = [seenByClient, await (await api('/mcp/servers')).text(), await (await api('/mcp/servers/guarded')).text(), ...details].join('\n')
    for (const secret of [...secrets, ...auth.tokens.keys()]) expect(everything).not.toContain(secret)
  })
})
