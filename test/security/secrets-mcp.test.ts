import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'
import { stringify } from 'yaml'
import { createProxy, type Proxy } from '../../core/app.ts'
import { listen, type RunningServer } from '../../core/runtime/server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.ts'
import { gatewayClient, until } from '../mcp/servers.ts'
import { capturingLogger, fileSurfaces, plant, recordingFetch, scan, type Seen } from './leak-scan.ts'

/**
 * MCP servers' secrets (a bearer token, a header, an OAuth client secret and the token it buys, a stdio
 * server's environment) with servers that quote them back: in a tool's result, a tool's error, a
 * refused connection, a token endpoint's refusal, a crashing server's stderr. Clients of `/mcp`, the
 * management API's server listings, logs, spans, metrics and the recorder must never show them.
 */
const require = createRequire(import.meta.url)
const secrets = {
  clientKey: plant('sk-client'),
  managementSecret: plant('mgmt'),
  bearer: plant('mcp-bearer'),
  header: plant('mcp-header'),
  refusedBearer: plant('mcp-refused'),
  clientSecret: plant('mcp-client-secret'),
  envValue: plant('mcp-env'),
  crashEnv: plant('mcp-crash-env'),
  urlSecret: plant('mcp-url-secret'),
}
const configHeld = new Set(['clientKey', 'bearer', 'header', 'refusedBearer', 'clientSecret', 'envValue', 'crashEnv', 'urlSecret'])
const configReads = /\/v0\/management\/(config|config\.yaml)( |$)/

/** Everything a request carried that a server might quote: raw, URL-encoded, base64. */
const quote = (text: string) => `${text} ${encodeURIComponent(text)} ${Buffer.from(text).toString('base64')}`

let echoServer: Server
let tokens: MockUpstream
let receiver: OtlpReceiver
let proxy: Proxy
let server: RunningServer
let root: string
const seen: Seen[] = []
const logged: string[] = []
let send: ReturnType<typeof recordingFetch>
const admin = (method: string, path: string) => send(`/v0/management${path}`, { method, headers: { authorization: `Bearer ${secrets.managementSecret}` } })

/** A Streamable HTTP server whose tools quote the request's headers; a wrong bearer gets a 401 that quotes it. */
async function startEchoServer(): Promise<Server> {
  const http = createServer(async (req, res) => {
    const said = quote(`${req.headers.authorization} ${req.headers['x-secret'] ?? ''}`)
    if (req.headers.authorization === `Bearer ${secrets.refusedBearer}`) {
      res.writeHead(401, { 'www-authenticate': `Bearer error="invalid_token", token="${encodeURIComponent(said)}"`, 'content-type': 'application/json' })
      return res.end(JSON.stringify({ error: 'invalid_token', error_description: `unknown token ${said}` }))
    }
    if (!req.url!.startsWith('/mcp')) return void res.writeHead(404, { 'content-type': 'text/plain' }).end(`no such path ${req.url}`)
    if (req.method !== 'POST') return void res.writeHead(405).end()
    const mcp = new McpServer({ name: 'echo', version: '1' })
    mcp.registerTool('whoami', { description: 'says who called', inputSchema: {} }, () => ({ content: [{ type: 'text', text: `you are ${said}` }] }))
    mcp.registerTool('boom', { description: 'fails', inputSchema: {} }, () => { throw new Error(`cannot with ${said}`) })
    mcp.registerTool('oops', { description: 'a tool error', inputSchema: { x: z.string().optional() } }, () => ({ isError: true, content: [{ type: 'text', text: `denied for ${said}` }] }))
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => { void transport.close(); void mcp.close() })
    await mcp.connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>(resolve => http.listen(0, '127.0.0.1', resolve))
  return http
}

beforeAll(async () => {
  echoServer = await startEchoServer()
  const echoUrl = `http://127.0.0.1:${(echoServer.address() as AddressInfo).port}/mcp`
  // A token endpoint that refuses the client, quoting the whole request.
  tokens = await startMockUpstream(async request => Response.json({ error: 'invalid_client', error_description: `no client ${quote(`${request.headers.get('authorization')} ${await request.text()}`)}` }, { status: 401 }))
  receiver = await startOtlpReceiver()
  root = mkdtempSync(join(tmpdir(), 'proxy-leak-mcp-'))
  // A stdio server whose tool reads its environment, and one that prints its environment and dies.
  const sdk = (path: string) => JSON.stringify(require.resolve(`@modelcontextprotocol/sdk/${path}`))
  writeFileSync(join(root, 'env-server.mjs'), `import { McpServer } from ${sdk('server/mcp.js')}
import { StdioServerTransport } from ${sdk('server/stdio.js')}
const mcp = new McpServer({ name: 'env', version: '1' })
mcp.registerTool('env', { description: 'its environment', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'TOKEN=' + process.env.TOKEN }] }))
mcp.registerTool('boom', { description: 'fails', inputSchema: {} }, () => { throw new Error('TOKEN=' + process.env.TOKEN) })
await mcp.connect(new StdioServerTransport())
`)
  writeFileSync(join(root, 'crash.mjs'), `console.error('starting with TOKEN=' + process.env.TOKEN + ' ' + Buffer.from(process.env.TOKEN).toString('base64')); process.exit(3)\n`)
  const config = {
    host: '127.0.0.1',
    'api-keys': [secrets.clientKey],
    'remote-management': { 'secret-key': secrets.managementSecret },
    'logging-to-file': true,
    'logs-dir': join(root, 'logs'),
    recorder: { mode: 'all' },
    otel: { endpoint: receiver.url },
    'mcp-servers': [
      { name: 'echo', url: echoUrl, 'bearer-token': secrets.bearer, headers: { 'x-secret': secrets.header } },
      { name: 'refused', url: echoUrl, 'bearer-token': secrets.refusedBearer },
      { name: 'crm', url: echoUrl, oauth: { 'token-url': `${tokens.url}/token`, 'client-id': 'proxy', 'client-secret': secrets.clientSecret } },
      { name: 'crm-body', url: echoUrl, oauth: { 'token-url': `${tokens.url}/token`, 'client-id': 'proxy', 'client-secret': secrets.clientSecret, 'client-auth': 'body' } },
      { name: 'env', command: process.execPath, args: [join(root, 'env-server.mjs')], env: { TOKEN: secrets.envValue } },
      // A server whose URL holds its secret (some hosted MCP servers are addressed so), down.
      { name: 'url-key', url: `http://127.0.0.1:9/mcp/${encodeURIComponent(secrets.urlSecret)}/sse?token=${encodeURIComponent(secrets.urlSecret)}` },
      { name: 'url-key-404', url: `${echoUrl.replace('/mcp', '')}/missing/${encodeURIComponent(secrets.urlSecret)}?token=${encodeURIComponent(secrets.urlSecret)}` },
      { name: 'crash', command: process.execPath, args: [join(root, 'crash.mjs')], env: { TOKEN: secrets.crashEnv } },
    ],
  }
  const configPath = join(root, 'config.yaml')
  writeFileSync(configPath, stringify(config))
  const storage = await createProxyStorage({ driver: 'fs', base: join(root, 'data') })
  proxy = await createProxy({ config: validateConfig(config), logger: capturingLogger(logged) as never, configPath, storage })
  server = await listen(() => proxy, proxy.kernel.config, { port: 0, host: '127.0.0.1' })
  send = recordingFetch(server.url, seen)
}, 30_000)
afterAll(async () => {
  await server?.close().catch(() => {})
  await proxy?.close().catch(() => {})
  await new Promise(resolve => { echoServer?.closeAllConnections(); echoServer?.close(resolve) })
  await Promise.all([tokens?.close(), receiver?.close()])
  rmSync(root, { recursive: true, force: true })
})

describe('no MCP server secret reaches a client, an operator read, a log, a span or the recorder', () => {
  it('calls tools that quote their credentials, and servers that fail with them', async () => {
    const states = async () => JSON.parse((await admin('GET', '/mcp/servers')).body).servers as Array<{ name: string; state: string; failures?: number }>
    // Every server has been tried: the good ones are up, the others down at least twice (a retry too).
    await until(async () => (await states()).every(s => s.state === 'up' || (s.state === 'down' && (s.failures ?? 0) >= 2)), 30_000)
    expect(Object.fromEntries((await states()).map(s => [s.name, s.state]))).toEqual({ echo: 'up', refused: 'down', crm: 'down', 'crm-body': 'down', env: 'up', crash: 'down', 'url-key': 'down', 'url-key-404': 'down' })
    const client = await gatewayClient(server.url, secrets.clientKey)
    try {
      const results: string[] = []
      for (const name of ['echo__whoami', 'echo__boom', 'echo__oops', 'env__env', 'env__boom', 'refused__whoami', 'crash__x']) {
        const result = await client.callTool({ name, arguments: {} }).catch((error: Error) => ({ error: error.message }))
        results.push(JSON.stringify(result))
      }
      seen.push({ where: 'mcp client results', text: results.join('\n') }, { where: 'mcp tool list', text: JSON.stringify(await client.listTools()) })
    } finally { await client.close() }
    for (const name of ['echo', 'refused', 'crm', 'crm-body', 'env', 'crash', 'url-key', 'url-key-404']) {
      await admin('GET', `/mcp/servers/${name}`)
      await admin('GET', `/mcp/servers/${name}/tools`)
    }
    const records = JSON.parse((await admin('GET', '/requests?limit=100')).body).requests as Array<{ id: string }>
    expect(records.length).toBeGreaterThanOrEqual(5)
    for (const { id } of records) await admin('GET', `/requests/${id}`)
    for (const path of ['/logs', '/status']) await admin('GET', path)
    await send('/metrics')
  }, 60_000)

  it('finds no secret in an answer, a listing or a record (configured ones only in the config reads)', () => {
    expect(scan(seen, secrets, (where, name) => configHeld.has(name) && configReads.test(where))).toEqual([])
  })

  it('finds no secret in a log, a span or the storage', async () => {
    await server.close()
    await proxy.close()
    const surfaces = [...fileSurfaces(join(root, 'logs')), ...fileSurfaces(join(root, 'data')), { where: 'logger', text: logged.join('\n') }, ...receiver.spans.map(span => ({ where: `span ${span.name}`, text: JSON.stringify(span) }))]
    expect(receiver.spans.length).toBeGreaterThan(3)
    expect(scan(surfaces, secrets)).toEqual([])
  })
})
