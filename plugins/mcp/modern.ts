import { createMcpHandler, isLegacyRequest, Server, type AuthInfo, type ServerContext } from '@modelcontextprotocol/server'
import type { Gateway } from './gateway.ts'
import { gatewayMethods, serverInfo, serverOptions, sessionOnly, type Caller, type GatewayMethod, type HandlerContext } from './mcp-server.ts'
import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/sdk/types.js'
import type { ListKind } from './upstream.ts'
import { isLevel, logLevelKey } from './logging.ts'
import type { ResourceSubscriptions } from './subscriptions.ts'
import { whenBodyEnds } from './body-end.ts'
import { openedAtOnce, streamedWhenSlow } from './event-stream.ts'
import { firstModern } from './protocol-version.ts'

/** The header and `_meta` key by which a request claims a per-request-metadata (2026-07-28 or later) protocol revision. */
const versionKey = 'io.modelcontextprotocol/protocolVersion'
const capabilitiesKey = 'io.modelcontextprotocol/clientCapabilities'
/** The methods whose result may be `input_required`: a server's requests to the client ride on them. */
const multiRound: ReadonlySet<GatewayMethod> = new Set(['tools/call', 'prompts/get', 'resources/read'])

/**
 * Whether a POST is in the stateless protocol era (revision 2026-07-28 on): its params carry the
 * protocol version in `_meta`, or its `MCP-Protocol-Version` header names such a revision. The SDK's
 * own classification decides in the end (`ModernEndpoint.serve`); this only keeps 2025 traffic off it.
 * The header is one the gateway speaks (`versionRefusal` answered any other), so dates compare in order.
 */
export function claimsModern(body: unknown, headerVersion: string | null): boolean {
  if (headerVersion !== null && headerVersion >= firstModern) return true
  const messages = Array.isArray(body) ? body : [body]
  return messages.some(message => {
    const meta = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta
    return meta !== null && typeof meta === 'object' && meta[versionKey] !== undefined
  })
}

/** Who asks, carried to the server factory through the SDK's `authInfo` (the client key was checked before). */
function callerOf(authInfo: AuthInfo | undefined): Caller {
  const caller = (authInfo?.extra as { caller?: Caller } | undefined)?.caller
  if (!caller) throw new Error('the gateway answers only the requests it authorized')
  return caller
}

export interface ModernEndpoint {
  /** Answers a modern request; `legacy()` when the SDK finds it is not one after all. */
  serve(request: Request, body: unknown, caller: Omit<Caller, 'cancelled'>, legacy: () => Promise<Response>): Promise<Response>
  /** Tells the open `subscriptions/listen` streams that a list changed. */
  changed(kind: ListKind): void
  /** Tells the `subscriptions/listen` streams that name a resource (its namespaced URI) that it changed. */
  updated(uri: string): void
  close(): Promise<void>
}

/** The resources a `subscriptions/listen` request names (`notifications.resourceSubscriptions`). */
function listenedResources(body: unknown): string[] {
  const message = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null
  const uris = message?.method === 'subscriptions/listen' ? message.params?.notifications?.resourceSubscriptions : undefined
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : []
}

/** A refused listen request, in the shape of a handler's error (HTTP 200, the server's code). */
function listenRefused(body: unknown, error: unknown): Response {
  const { code = -32603, message } = error as { code?: number; message: string }
  return Response.json({ jsonrpc: '2.0', id: (body as { id?: unknown }).id ?? null, error: { code, message } })
}

const notices = { tools: 'toolsChanged', resources: 'resourcesChanged', prompts: 'promptsChanged' } as const

/**
 * `/mcp` for the stateless revision (2026-07-28): no `initialize`, no session; each request carries its
 * version and the client's identity, and is answered on its own (JSON, or SSE when progress is asked
 * for). The SDK 2 handler does the protocol: `server/discover`, version and header checks, the
 * `subscriptions/listen` stream, cancellation when the client closes the response. The gateway answers
 * with the same methods as for 2025 sessions, so access, bounds, metrics and the recorder are the same.
 */
export function createModernEndpoint(gateway: Gateway, subscriptions: ResourceSubscriptions, keepaliveSeconds: () => number, onerror: (error: Error) => void): ModernEndpoint {
  const rounds = gateway.inputRounds
  const handler = createMcpHandler(({ authInfo }) => {
    const server = new Server(serverInfo, serverOptions)
    const caller = callerOf(authInfo)
    const methods = gatewayMethods(gateway, caller)
    for (const method of Object.keys(methods) as GatewayMethod[]) {
      if (sessionOnly.has(method)) continue
      server.setRequestHandler(method, (request: { params?: unknown }, context: ServerContext) => {
        const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined
        const base: HandlerContext = {
          requestId: context.mcpReq.id,
          signal: context.mcpReq.signal,
          progressToken: context.mcpReq._meta?.progressToken,
          logLevel: () => isLevel(envelope?.[logLevelKey]) ? envelope[logLevelKey] as LoggingLevel : undefined,
          notify: notification => context.mcpReq.notify(notification),
          capabilities: () => envelope?.[capabilitiesKey] as ClientCapabilities | undefined,
        }
        if (!multiRound.has(method)) return methods[method](request.params as never, base) as never
        const state = context.mcpReq.requestState()
        return rounds.serve(caller.keyId, { signal: base.signal, notify: base.notify as never, state: typeof state === 'string' ? state : undefined, responses: context.mcpReq.inputResponses },
          (ask, signal, notify) => methods[method](request.params as never, { ...base, signal, notify, request: ask }) as Promise<unknown>) as never
      })
    }
    return server
    // Keep-alive comments are the gateway's (openedAtOnce), at the configured pace.
  }, { legacy: 'reject', onerror, keepAliveMs: 0 })
  return {
    async serve(request, body, caller, legacy) {
      if (await isLegacyRequest(request, body)) return legacy()
      // Cancellation is the client closing this request's stream: no notice travels between requests.
      const authInfo: AuthInfo = { token: '', clientId: caller.keyId, scopes: [], extra: { caller: { ...caller, cancelled: () => undefined } } }
      const uris = listenedResources(body)
      if (!uris.length) return streamedWhenSlow(handler.fetch(request, { parsedBody: body, authInfo }), request, keepaliveSeconds())
      // The resources a listen stream names are subscribed on their servers while it stays open.
      let release: () => void
      try {
        release = await subscriptions.hold(caller.access(), uris, request.signal)
      } catch (error) {
        return listenRefused(body, error)
      }
      try {
        return openedAtOnce(whenBodyEnds(await handler.fetch(request, { parsedBody: body, authInfo }), release), keepaliveSeconds())
      } catch (error) {
        release()
        throw error
      }
    },
    changed: kind => handler.notify[notices[kind]](),
    updated: uri => handler.notify.resourceUpdated(uri),
    close: () => handler.close(),
  }
}
