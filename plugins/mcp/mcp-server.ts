import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import {
  CallToolRequestSchema, CompleteRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, SetLevelRequestSchema, SubscribeRequestSchema,
  UnsubscribeRequestSchema, McpError, ErrorCode, type ClientCapabilities, type LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { KeyAccess } from './access.ts'
import type { Gateway } from './gateway.ts'
import type { LogParams, LogSink } from './logging.ts'
import { rpcFailure, type ClientChannel, type ClientMethod } from './client-requests.ts'

export interface Caller {
  keyId: string
  access: () => KeyAccess
  /** Aborted when the client cancels this request id (it may arrive on another request or instance). */
  cancelled(requestId: string | number): AbortSignal | undefined
  /** The 2025 session the request belongs to, and the log level it asked for (`logging/setLevel`). */
  session?: string
  logLevel?(): LoggingLevel | undefined
  setLogLevel?(level: LoggingLevel): Promise<void>
  /** The session's resource subscriptions. */
  subscriptions?: { add(uri: string, signal: AbortSignal): Promise<void>; remove(uri: string, signal: AbortSignal): Promise<void> }
  /** What the client declared it answers (elicitation, sampling, roots): its session's, or its request's own. */
  clientCapabilities?(): ClientCapabilities | undefined
}

export const serverInfo = { name: 'model-proxy-mcp-gateway', title: 'model proxy MCP gateway', version: '1' }
export const serverOptions = {
  capabilities: { completions: {}, logging: {}, tools: { listChanged: true }, resources: { listChanged: true, subscribe: true }, prompts: { listChanged: true } },
  instructions: 'Tools, resources and prompts of the MCP servers this proxy fronts, each named after its server (server__tool).',
}

/** What a handler gets from either SDK's request context. */
export interface HandlerContext {
  requestId: string | number
  signal: AbortSignal
  progressToken: string | number | undefined
  /** The log level this request hears: its session's (2025), or its own `_meta` one (2026-07-28). */
  logLevel(): LoggingLevel | undefined
  notify(notification: { method: 'notifications/progress'; params: Record<string, unknown> } | { method: 'notifications/message'; params: LogParams }): Promise<void>
  /** Sends a server's request to the client in this request's answer; absent: the transport has no way to. */
  request?(method: ClientMethod, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>>
  /** What this request's client declared, when the request itself says (2026-07-28: its `_meta`). */
  capabilities?(): ClientCapabilities | undefined
}

/** Params arrive validated by the SDK's schema for the method. */
type Params = any

/**
 * The gateway's answer to each MCP method for one caller, the same for both protocol eras: the
 * 2025 sessions (SDK 1, `gatewayServer`) and the stateless 2026-07-28 requests (SDK 2, modern.ts).
 */
export function gatewayMethods(gateway: Gateway, caller: Caller) {
  // The servers' log notices during this request go in its answer.
  const log = (context: HandlerContext): LogSink => ({
    session: caller.session,
    access: caller.access,
    level: context.logLevel,
    send: params => void context.notify({ method: 'notifications/message', params }).catch(() => {}),
  })
  // The servers' requests to their client during this request go to this client, in its answer (or
  // nowhere, when it cannot take them: they are still this request's, not another client's).
  const client = (context: HandlerContext): ClientChannel => ({
    session: caller.session,
    access: caller.access,
    capabilities: () => context.capabilities ? context.capabilities() : caller.clientCapabilities?.(),
    request: context.request ?? (async method => { throw rpcFailure(ErrorCode.MethodNotFound, `Method not found: ${method} cannot reach the client during this request`) }),
    signal: context.signal,
  })
  const attend = (context: HandlerContext) => ({ log: log(context), client: client(context) })
  // A 2025 session's cancel may come on another POST (or instance) than the request it stops.
  const stoppable = (context: HandlerContext): HandlerContext => {
    const cancelled = caller.cancelled(context.requestId)
    return cancelled ? { ...context, signal: AbortSignal.any([context.signal, cancelled]) } : context
  }
  return {
    'tools/list': () => ({ tools: gateway.listTools(caller.access()) }),
    'tools/call': (params: Params, request: HandlerContext) => {
      const context = stoppable(request)
      const { progressToken } = context
      return gateway.callTool({
        keyId: caller.keyId,
        access: caller.access(),
        signal: context.signal,
        onprogress: progressToken === undefined ? undefined : (progress) => {
          void context.notify({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => {})
        },
        ...attend(context),
      }, params.name, params.arguments)
    },
    'prompts/list': () => ({ prompts: gateway.listPrompts(caller.access()) }),
    'prompts/get': (params: Params, request: HandlerContext, context = stoppable(request)) => gateway.getPrompt(caller.access(), params.name, params.arguments, context.signal, attend(context)),
    'resources/list': () => ({ resources: gateway.listResources(caller.access()) }),
    'resources/templates/list': () => ({ resourceTemplates: gateway.listResourceTemplates(caller.access()) }),
    'resources/read': (params: Params, request: HandlerContext, context = stoppable(request)) => gateway.readResource(caller.access(), params.uri, context.signal, attend(context)),
    'completion/complete': (params: Params, request: HandlerContext, context = stoppable(request)) => gateway.complete(caller.access(), params, context.signal, attend(context)),
    // 2025 sessions only: the 2026-07-28 revision asks per request, in `_meta`.
    'logging/setLevel': async (params: Params) => {
      await caller.setLogLevel?.(params.level)
      await gateway.setLogLevel(caller.access(), params.level)
      return {}
    },
    // 2025 sessions only: the 2026-07-28 revision names the resources on `subscriptions/listen` (modern.ts).
    'resources/subscribe': async (params: Params, context: HandlerContext) => {
      await subscriptionsOf(caller).add(params.uri, context.signal)
      return {}
    },
    'resources/unsubscribe': async (params: Params, context: HandlerContext) => {
      await subscriptionsOf(caller).remove(params.uri, context.signal)
      return {}
    },
  }
}

function subscriptionsOf(caller: Caller): NonNullable<Caller['subscriptions']> {
  if (!caller.subscriptions) throw new McpError(ErrorCode.InvalidRequest, 'resource subscriptions need a session')
  return caller.subscriptions
}

export type GatewayMethod = keyof ReturnType<typeof gatewayMethods>

/** What the 2026-07-28 revision does not have: its requests carry their log level, and subscribe on `subscriptions/listen`. */
export const sessionOnly: ReadonlySet<GatewayMethod> = new Set(['logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'])

const schemas = {
  'tools/list': ListToolsRequestSchema, 'tools/call': CallToolRequestSchema, 'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema, 'resources/list': ListResourcesRequestSchema, 'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema, 'completion/complete': CompleteRequestSchema, 'logging/setLevel': SetLevelRequestSchema,
  'resources/subscribe': SubscribeRequestSchema, 'resources/unsubscribe': UnsubscribeRequestSchema,
} as const

/**
 * The gateway as one MCP server for one caller over the 2025 protocol: the SDK's `Server` does the
 * protocol, the handlers ask the gateway with the caller's access. Made per HTTP exchange (sessions
 * live in storage, not here).
 */
export function gatewayServer(gateway: Gateway, caller: Caller, toClient?: (extra: RequestHandlerExtra<never, never>) => HandlerContext['request']): Server {
  const server = new Server(serverInfo, serverOptions)
  const methods = gatewayMethods(gateway, caller)
  for (const method of Object.keys(schemas) as GatewayMethod[]) {
    // Checked here, not by the SDK, whose failed check is an internal error (-32603): params that do not fit are -32602.
    server.setRequestHandler(z.object({ method: z.literal(method), params: z.unknown().optional() }) as unknown as typeof ListToolsRequestSchema, (raw, extra) => {
      const parsed = (schemas[method] as typeof ListToolsRequestSchema).safeParse(raw)
      if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid ${method} request: ${parsed.error.message}`)
      const request = parsed.data
      return methods[method](request.params as Params, {
        requestId: extra.requestId,
        signal: extra.signal,
        progressToken: request.params?._meta?.progressToken,
        logLevel: () => caller.logLevel?.(),
        notify: notification => extra.sendNotification(notification as never),
        request: toClient?.(extra as never),
      }) as never
    })
  }
  return server
}
