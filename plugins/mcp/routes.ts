import type { H3Event } from 'h3'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { isInitializeRequest, isJSONRPCNotification, type JSONRPCMessage, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js'
import type { ProxyKernel } from 'model-proxy'
import { authorizeClient } from 'model-proxy/kit/access'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { Gateway } from './gateway.ts'
import { gatewayServer } from './mcp-server.ts'
import type { Sessions } from './sessions.ts'
import type { KeyAccess } from './access.ts'
import { whenBodyEnds } from './body-end.ts'
import { followedBy, openedAtOnce } from './event-stream.ts'
import { batchRefusal, duplicateIdError, withoutDuplicateIds } from './batch.ts'
import { rpcError } from './rpc-error.ts'
import { claimsModern, type ModernEndpoint } from './modern.ts'
import type { ResourceSubscriptions } from './subscriptions.ts'
import { isAnswer } from './client-answers.ts'
import { versionHeader, versionRefusal } from './protocol-version.ts'
import { DEFAULT_MAX_REQUEST_BODY_SIZE, readRequestBody, requestBodyTooLargeMessage } from '@modelcontextprotocol/sdk/server/requestBody.js'

export const sessionHeader = 'mcp-session-id'

export interface GatewayRoutes {
  gateway: Gateway
  sessions: Sessions
  /** The caller's identity for counting, and its access, from its client key. */
  caller(key: string | undefined): { keyId: string; access: () => KeyAccess }
  /** Open standing streams (GET, legacy SSE) and their sessions: list-changed notices go there. */
  listeners: Map<Server, string | undefined>
  /** The legacy SSE stream, for a GET with no session (an older client falling back). */
  legacyStream?(key: string | undefined): Promise<Response>
  /** Requests of the stateless revision (2026-07-28 on). */
  modern?: ModernEndpoint
  subscriptions: ResourceSubscriptions
  /** `mcp.keepalive-seconds`, read as each stream opens. */
  keepaliveSeconds(): number
}

/** The client key, or the 401/403 as a JSON-RPC error. */
export function authorize(kernel: ProxyKernel, event: H3Event): { key: string | undefined } | Response {
  try {
    if (kernel.services.draining) return rpcError(503, -32000, 'the server is shutting down: connect again (to another instance)')
    return { key: authorizeClient(kernel, event) }
  } catch (error) {
    const { status = 401, message } = error as { status?: number; message: string }
    return rpcError(status, -32001, message)
  }
}

/** The id of a single request, echoed in a refusal (a batch or a notification has none to echo). */
const requestId = (body: unknown): string | number | null => {
  const id = (body as { id?: unknown } | null)?.id
  return typeof id === 'string' || typeof id === 'number' ? id : null
}
const asList = (body: unknown): JSONRPCMessage[] => (Array.isArray(body) ? body : [body]) as JSONRPCMessage[]
const isCancel = (message: JSONRPCMessage): message is JSONRPCMessage & { params?: { requestId?: string | number } } =>
  isJSONRPCNotification(message) && message.method === 'notifications/cancelled'

/** A 2025 session's part of a caller: the log level it asked for (kept with the session), its resource subscriptions. */
export function sessionCaller(routes: Pick<GatewayRoutes, 'sessions' | 'subscriptions'>, session: string | undefined, access: () => KeyAccess) {
  const { sessions, subscriptions } = routes
  return {
    session,
    logLevel: () => session === undefined ? undefined : sessions.level(session),
    setLogLevel: async (level: LoggingLevel) => { if (session !== undefined) await sessions.setLevel(session, level) },
    subscriptions: session === undefined ? undefined : {
      add: (uri: string, signal: AbortSignal) => subscriptions.add(access(), session, uri, signal),
      remove: (uri: string, signal: AbortSignal) => subscriptions.remove(access(), session, uri, signal),
    },
  }
}

/**
 * A session's standing stream (GET, legacy SSE): the log notices it asked for that no request of it
 * took, and the changes of the resources it subscribed to. Returns its end.
 */
export function standingStream(routes: Pick<GatewayRoutes, 'gateway' | 'sessions' | 'subscriptions'>, session: string, access: () => KeyAccess, server: Server): () => void {
  const stopLogs = routes.gateway.logs.listen({
    session,
    access,
    level: () => routes.sessions.level(session),
    send: params => void server.notification({ method: 'notifications/message', params }).catch(() => {}),
  })
  const stopUpdates = routes.subscriptions.listen(session, uri => void server.sendResourceUpdated({ uri }).catch(() => {}))
  return () => {
    stopLogs()
    stopUpdates()
  }
}

/**
 * `/mcp`: the gateway over Streamable HTTP. The SDK's transport does the protocol, made fresh for each
 * request in its stateless mode; the session (its id, its key) is the proxy's, kept in the storage, so
 * any instance serves any session. POST carries requests (answered as an SSE stream, so progress
 * notices reach the client), GET the standalone stream for list-changed notices, DELETE ends a session.
 */
export function addGatewayRoutes(kernel: ProxyKernel, routes: GatewayRoutes): void {
  const serve = async (event: H3Event, key: string | undefined, session: string | undefined, parsedBody?: unknown, standalone = false) => {
    const caller = routes.caller(key)
    const tracked: Array<{ done(): void }> = []
    // Keep-alive comments are the gateway's (openedAtOnce), at the configured pace.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, keepAliveMs: 0 })
    const server = gatewayServer(routes.gateway, {
      ...caller,
      ...sessionCaller(routes, session, caller.access),
      cancelled: id => {
        if (!session) return undefined
        const track = routes.sessions.track(session, id)
        tracked.push(track)
        return track.signal
      },
      clientCapabilities: () => session === undefined ? undefined : routes.sessions.capabilities(session),
    }, extra => session === undefined ? undefined : (method, params, signal) => routes.gateway.answers.request(
      session, message => transport.send(message, { relatedRequestId: extra.requestId }), method, params, signal,
    ))
    await server.connect(transport)
    if (standalone) routes.listeners.set(server, session)
    const stopStream = standalone && session ? standingStream(routes, session, caller.access, server) : undefined
    const cleanup = () => {
      routes.listeners.delete(server)
      stopStream?.()
      for (const track of tracked) track.done()
      void server.close().catch(() => {})
    }
    try {
      return openedAtOnce(whenBodyEnds(await transport.handleRequest(event.req as Request, parsedBody === undefined ? undefined : { parsedBody }), cleanup), routes.keepaliveSeconds())
    } catch (error) {
      cleanup()
      throw error
    }
  }

  /** The session a request names: undefined (none sent), or the refusal to answer. */
  const sessionOf = async (event: H3Event, key: string | undefined): Promise<string | undefined | Response> => {
    const id = event.req.headers.get(sessionHeader)
    if (!id) return rpcError(400, -32000, `Bad Request: the ${sessionHeader} header is required (initialize first)`)
    if (!await routes.sessions.valid(id, key)) return rpcError(404, -32001, 'Session not found: initialize a new session')
    return id
  }

  kernel.app.on('POST', '/mcp', async (event) => {
    const auth = authorize(kernel, event)
    if (auth instanceof Response) return auth
    let body: unknown
    try {
      body = await readJsonBody(event.req as Request)
    } catch (error) {
      return error instanceof Response ? error : rpcError(400, -32700, `Parse error: ${(error as Error).message}`)
    }
    const headerVersion = event.req.headers.get(versionHeader)
    const refused = versionRefusal(headerVersion, requestId(body))
    if (refused) return refused
    const batchRefused = batchRefusal(body, headerVersion)
    if (batchRefused) return batchRefused
    const legacy = () => legacyPost(event, auth.key, body)
    if (routes.modern && claimsModern(body, headerVersion)) return routes.modern.serve(event.req as Request, body, routes.caller(auth.key), legacy)
    return legacy()
  })

  /** A POST of the 2025 protocol: `initialize` opens a session, anything else names one. */
  const legacyPost = async (event: H3Event, key: string | undefined, body: unknown): Promise<Response> => {
    const messages = asList(body)
    if (messages.some(isInitializeRequest)) {
      if (messages.length > 1) return rpcError(400, -32600, 'Invalid Request: initialize must be sent alone')
      const response = await serve(event, key, undefined, body)
      const declared = (messages[0] as { params?: { capabilities?: object } }).params?.capabilities
      if (response.status === 200) response.headers.set(sessionHeader, await routes.sessions.open(key, declared))
      return response
    }
    const session = await sessionOf(event, key)
    if (session instanceof Response) return session
    // The client's answers to what the gateway asked it: taken by the request that waits, wherever it runs.
    const answers = messages.filter(isAnswer)
    for (const answer of answers) {
      if (!await routes.gateway.answers.answer(session!, answer)) return rpcError(400, -32600, `Invalid Request: no request with id ${JSON.stringify(answer.id)} awaits an answer from this session`)
    }
    // Cancels are the gateway's (the call may run on another instance): kept from the SDK server, which
    // would drop the answer of a request cancelled in the same batch and leave this POST open for good.
    const cancels = messages.filter(isCancel)
    const cancel = () => {
      for (const { params } of cancels) if (params?.requestId !== undefined) routes.sessions.cancel(session!, params.requestId)
    }
    const { kept: rest, duplicates } = withoutDuplicateIds(messages.filter(message => !isAnswer(message) && !isCancel(message)))
    if (!rest.length) {
      cancel()
      return new Response(null, { status: 202 })
    }
    const response = await serve(event, key, session, rest.length === messages.length ? body : Array.isArray(body) ? rest : rest[0])
    // After this POST's own requests started: one of them may be what is cancelled.
    cancel()
    return followedBy(response, duplicates.map(duplicateIdError))
  }

  kernel.app.on('GET', '/mcp', async (event) => {
    const auth = authorize(kernel, event)
    if (auth instanceof Response) return auth
    const refused = versionRefusal(event.req.headers.get(versionHeader))
    if (refused) return refused
    // No session: an older client falling back to the legacy SSE transport on the same URL.
    if (!event.req.headers.get(sessionHeader) && routes.legacyStream) return routes.legacyStream(auth.key)
    const session = await sessionOf(event, auth.key)
    if (session instanceof Response) return session
    return serve(event, auth.key, session, undefined, true)
  })

  kernel.app.on('DELETE', '/mcp', async (event) => {
    const auth = authorize(kernel, event)
    if (auth instanceof Response) return auth
    const refused = versionRefusal(event.req.headers.get(versionHeader))
    if (refused) return refused
    const session = await sessionOf(event, auth.key)
    if (session instanceof Response) return session
    await routes.sessions.close(session!)
    return new Response(null, { status: 200 })
  })
}

/**
 * The JSON body, read by the SDK's own reader within its bound (4 MB): a larger one, chunked too, is
 * thrown as the SDK transport's answer (413), and never read further (no body is held whole past it).
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const body = await readRequestBody(request, DEFAULT_MAX_REQUEST_BODY_SIZE)
  if (body.tooLarge) throw rpcError(413, -32000, requestBodyTooLargeMessage(DEFAULT_MAX_REQUEST_BODY_SIZE))
  return JSON.parse(body.text)
}
