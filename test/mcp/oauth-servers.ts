import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'

/** A registered client of the mock authorization server. */
export interface MockClient { id: string; secret: string }

export interface MockAuthServer {
  mock: MockUpstream
  /** Every token request's form (client id and secret taken from Basic or the body). */
  grants: Array<{ clientId?: string; clientSecret?: string; form: URLSearchParams }>
  /** Tokens issued, with when each expires (epoch ms). */
  tokens: Map<string, number>
  /** Seconds a new token lives. */
  lifetimeSeconds: number
}

/**
 * A mock OAuth authorization server: client credentials grant at `/token` (client auth by HTTP Basic
 * or the body), RFC 8414 metadata at `/.well-known/oauth-authorization-server`.
 */
export async function startMockAuthServer(clients: MockClient[]): Promise<MockAuthServer> {
  const auth: MockAuthServer = { mock: undefined!, grants: [], tokens: new Map(), lifetimeSeconds: 3600 }
  let issued = 0
  auth.mock = await startMockUpstream(async (request) => {
    const path = new URL(request.url).pathname
    if (path === '/.well-known/oauth-authorization-server') {
      return Response.json({ issuer: auth.mock.url, token_endpoint: `${auth.mock.url}/token`, response_types_supported: ['token'], grant_types_supported: ['client_credentials'] })
    }
    if (path !== '/token' || request.method !== 'POST') return new Response('not found', { status: 404 })
    const form = new URLSearchParams(await request.text())
    let clientId = form.get('client_id') ?? undefined
    let clientSecret = form.get('client_secret') ?? undefined
    const basic = request.headers.get('authorization')?.match(/^Basic (.+)$/)
    if (basic) [clientId, clientSecret] = Buffer.from(basic[1]!, 'base64').toString().split(':').map(part => new URLSearchParams(`v=${part}`).get('v')!)
    auth.grants.push({ clientId, clientSecret, form })
    if (form.get('grant_type') !== 'client_credentials') return Response.json({ error: 'unsupported_grant_type' }, { status: 400 })
    if (!clients.some(client => client.id === clientId && client.secret === clientSecret)) {
      return Response.json({ error: 'invalid_client', error_description: 'client authentication failed' }, { status: 401 })
    }
    const token = `at-${++issued}-${Math.random().toString(36).slice(2)}`
    auth.tokens.set(token, Date.now() + auth.lifetimeSeconds * 1000)
    return Response.json({ access_token: token, token_type: 'Bearer', expires_in: auth.lifetimeSeconds, scope: form.get('scope') ?? undefined })
  })
  return auth
}

export interface ProtectedMcpServer {
  /** Streamable HTTP at `/mcp`. */
  url: string
  /** The legacy HTTP+SSE transport at `/sse`. */
  sseUrl: string
  /** Every bearer token sent, and what the server answered (200 or 401). */
  seen: Array<{ token?: string; status: number }>
  /** Tokens refused from now on even if not expired (revoked at the authorization server). */
  revoked: Set<string>
  close(): Promise<void>
}

function echoServer(): McpServer {
  const mcp = new McpServer({ name: 'protected', version: '1' })
  mcp.registerTool('echo', { description: 'Echoes its message', inputSchema: { message: z.string() } }, ({ message }) => ({ content: [{ type: 'text', text: `echo: ${message}` }] }))
  return mcp
}

/**
 * The SDK's McpServer over Streamable HTTP (stateless, `/mcp`) and legacy SSE (`/sse`), every request
 * wanting a live token of `auth`, 401 otherwise.
 */
export async function startProtectedMcpServer(auth: MockAuthServer): Promise<ProtectedMcpServer> {
  const seen: ProtectedMcpServer['seen'] = []
  const revoked = new Set<string>()
  const sse = new Map<string, SSEServerTransport>()
  const server: Server = createServer(async (req, res) => {
    const token = req.headers.authorization?.match(/^Bearer (.+)$/)?.[1]
    const expires = token ? auth.tokens.get(token) : undefined
    if (!token || expires === undefined || expires <= Date.now() || revoked.has(token)) {
      seen.push({ token, status: 401 })
      res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"', 'content-type': 'application/json' })
      return res.end(JSON.stringify({ error: 'invalid_token' }))
    }
    seen.push({ token, status: 200 })
    const path = new URL(req.url!, 'http://x').pathname
    if (path === '/sse') {
      const transport = new SSEServerTransport('/messages', res)
      sse.set(transport.sessionId, transport)
      res.on('close', () => sse.delete(transport.sessionId))
      return void echoServer().connect(transport)
    }
    if (path === '/messages') {
      const transport = sse.get(new URL(req.url!, 'http://x').searchParams.get('sessionId') ?? '')
      return transport ? void transport.handlePostMessage(req, res) : void res.writeHead(404).end()
    }
    // Stateless: no stream for server notices, no session to end.
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end()
    const mcp = echoServer()
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => { void transport.close(); void mcp.close() })
    await mcp.connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: `${origin}/mcp`,
    sseUrl: `${origin}/sse`,
    seen, revoked,
    close: () => new Promise(resolve => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}
