import type { H3Event } from 'h3'
import { JSONRPCMessageSchema, ResultSchema } from '@modelcontextprotocol/sdk/types.js'
import type { ProxyKernel } from 'model-proxy'
import type { Fleet } from 'model-proxy/kit/fleet'
import { gatewayServer } from './mcp-server.ts'
import { LegacySseTransport } from './legacy-sse.ts'
import { rpcError } from './rpc-error.ts'
import { authorize, readJsonBody, sessionCaller, standingStream, type GatewayRoutes } from './routes.ts'

const channel = 'mcp-legacy-sse'
/** The client's answer is bounded by the call's own timeout, not the SDK's default minute. */
const maxTimeoutMs = 2 ** 31 - 1

/**
 * The legacy SSE transport at `/mcp/sse` (stream) and `/mcp/messages` (POST). The stream lives on one
 * instance; a POST that lands on another is handed to it over the fleet's channel, so the session
 * works behind a balancer too.
 */
export function addLegacyRoutes(kernel: ProxyKernel, routes: GatewayRoutes, fleet: Fleet): { stream(key: string | undefined): Promise<Response>; close(): void } {
  const open = new Map<string, LegacySseTransport>()
  const unsubscribe = fleet.subscribe(channel, (text) => {
    try {
      const { session, message } = JSON.parse(text)
      open.get(session)?.receive(JSONRPCMessageSchema.parse(message))
    } catch {}
  })

  const stream = async (key: string | undefined) => {
    const session = await routes.sessions.open(key)
    const transport = new LegacySseTransport('/mcp/messages', session, routes.keepaliveSeconds())
    const caller = routes.caller(key)
    // One server for the session's life: it knows what the client declared, and matches its answers itself.
    const server = gatewayServer(routes.gateway, {
      ...caller, ...sessionCaller(routes, session, caller.access), cancelled: () => undefined, clientCapabilities: () => server.getClientCapabilities(),
    }, extra => (method, params, signal) => extra.sendRequest({ method, params } as never, ResultSchema, { signal, timeout: maxTimeoutMs }) as Promise<Record<string, unknown>>)
    open.set(session, transport)
    routes.listeners.set(server, session)
    const stopStream = standingStream(routes, session, caller.access, server)
    transport.onclose = () => {
      open.delete(session)
      routes.listeners.delete(server)
      stopStream()
      void routes.sessions.close(session).catch(() => {})
    }
    await server.connect(transport)
    return transport.response
  }
  kernel.app.on('GET', '/mcp/sse', (event) => {
    const auth = authorize(kernel, event)
    return auth instanceof Response ? auth : stream(auth.key)
  })

  kernel.app.on('POST', '/mcp/messages', async (event: H3Event) => {
    const auth = authorize(kernel, event)
    if (auth instanceof Response) return auth
    const session = event.url.searchParams.get('sessionId') ?? ''
    if (!session || !await routes.sessions.valid(session, auth.key)) return rpcError(404, -32001, 'Session not found')
    let body: unknown
    try {
      body = await readJsonBody(event.req as Request)
    } catch (error) {
      return error instanceof Response ? error : rpcError(400, -32700, `Parse error: ${(error as Error).message}`)
    }
    // JSON, but no JSON-RPC message: the client's Invalid Request, in a line (not the validator's issues).
    const parsed = JSONRPCMessageSchema.safeParse(body)
    if (!parsed.success) return rpcError(400, -32600, 'Invalid Request: the body is not one JSON-RPC message (request, notification or response)')
    const message = parsed.data
    const local = open.get(session)
    if (local) local.receive(message)
    else await fleet.publish(channel, JSON.stringify({ session, message }))
    return new Response('Accepted', { status: 202 })
  })
  return {
    stream,
    close() {
      unsubscribe()
      for (const transport of open.values()) void transport.close()
    },
  }
}
