import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, LoggingMessageNotificationSchema, PromptListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema,
  type CallToolResult, type CompleteResult, type GetPromptResult, type Prompt, type ReadResourceResult, type Resource,
  type LoggingLevel, type ResourceTemplate, type ServerCapabilities, type Tool, isJSONRPCErrorResponse, isJSONRPCResultResponse,
} from '@modelcontextprotocol/sdk/types.js'
import { Client as NegotiatingClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { logLevelKey, type LogParams } from './logging.ts'
import { clientMethods, type ClientMethod } from './client-requests.ts'

export type ListKind = 'tools' | 'resources' | 'prompts'

export interface CallOptions {
  signal?: AbortSignal
  timeout?: number
  /** The log notices the caller asked for: sent with the request in the 2026-07-28 revision (`_meta`). */
  logLevel?: LoggingLevel
}

/** One page of a list, and where the next starts. */
interface Page<T> { items: T[]; nextCursor?: string }

/**
 * What the gateway asks of one of its MCP servers, whichever protocol revision it speaks: the 2025
 * handshake (SDK 1: stdio and the legacy SSE transport) or, over Streamable HTTP, whatever the server
 * offers (SDK 2 negotiating: the stateless 2026-07-28 revision, else `initialize`).
 */
export interface UpstreamClient {
  /** The revision spoken, as negotiated. */
  readonly protocolVersion: string | undefined
  capabilities(): ServerCapabilities | undefined
  /** Whether log levels travel with each request (2026-07-28), not by `logging/setLevel` for the connection. */
  readonly levelPerRequest: boolean
  setLoggingLevel(level: LoggingLevel, options: CallOptions): Promise<void>
  callTool(params: { name: string; arguments?: Record<string, unknown> }, options: CallOptions & { onprogress?: (progress: { progress: number; total?: number; message?: string }) => void; tool?: Tool }): Promise<CallToolResult>
  getPrompt(params: { name: string; arguments?: Record<string, string> }, options: CallOptions): Promise<GetPromptResult>
  readResource(params: { uri: string }, options: CallOptions): Promise<ReadResourceResult>
  subscribe(uri: string, options: CallOptions): Promise<void>
  unsubscribe(uri: string, options: CallOptions): Promise<void>
  complete(params: Parameters<Client['complete']>[0], options: CallOptions): Promise<CompleteResult>
  tools(cursor?: string): Promise<Page<Tool>>
  prompts(cursor?: string): Promise<Page<Prompt>>
  resources(cursor?: string): Promise<Page<Resource>>
  templates(cursor?: string): Promise<Page<ResourceTemplate>>
  ping(timeoutMs: number): Promise<void>
  close(): Promise<void>
}

/** What the connection tells its owner. */
export interface ClientEvents {
  changed(kind: ListKind): void
  log(params: LogParams): void
  /** A resource the gateway subscribed to changed. */
  updated(uri: string): void
  closed(): void
  error(error: Error): void
  /** A request of the server to its client (elicitation, sampling, roots): answered by a gateway client. */
  request(method: ClientMethod, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<Record<string, unknown>>
}

const clientInfo = { name: 'model-proxy-mcp-gateway', version: '1' }
/**
 * Everything a gateway client may answer, so servers offer what needs it (a server may hide a tool
 * from a client without elicitation); whether the client at hand declared it is checked per request.
 */
const capabilities = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} }
const schemaOf = { 'elicitation/create': ElicitRequestSchema, 'sampling/createMessage': CreateMessageRequestSchema, 'roots/list': ListRootsRequestSchema }

/** The 2025 handshake over `transport` (stdio, legacy SSE). */
export async function connectLegacy(transport: Transport, events: ClientEvents, timeoutMs: number): Promise<UpstreamClient> {
  const client = new Client(clientInfo, { capabilities })
  client.onclose = events.closed
  client.onerror = events.error
  for (const method of clientMethods) {
    client.setRequestHandler(schemaOf[method] as typeof ListRootsRequestSchema, (request, extra) => events.request(method, request.params, extra.signal) as never)
  }
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.changed('tools'))
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => events.changed('resources'))
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => events.changed('prompts'))
  client.setNotificationHandler(LoggingMessageNotificationSchema, notification => events.log(notification.params))
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, notification => events.updated(notification.params.uri))
  try {
    await client.connect(transport, { timeout: timeoutMs })
  } catch (error) {
    void client.close().catch(() => {})
    throw error
  }
  inOrder(transport)
  return {
    // SDK 1 does not tell which 2025-era version the handshake settled on.
    protocolVersion: undefined,
    capabilities: () => client.getServerCapabilities(),
    levelPerRequest: false,
    setLoggingLevel: async (level, { logLevel: _level, ...options }) => { await client.setLoggingLevel(level, options) },
    callTool: (params, { tool: _tool, logLevel: _level, ...options }) => client.callTool(params, undefined, { ...options, resetTimeoutOnProgress: false }) as Promise<CallToolResult>,
    getPrompt: (params, { logLevel: _level, ...options }) => client.getPrompt(params, options),
    readResource: (params, { logLevel: _level, ...options }) => client.readResource(params, options),
    subscribe: async (uri, { logLevel: _level, ...options }) => { await client.subscribeResource({ uri }, options) },
    unsubscribe: async (uri, { logLevel: _level, ...options }) => { await client.unsubscribeResource({ uri }, options) },
    complete: (params, { logLevel: _level, ...options }) => client.complete(params, options),
    tools: async cursor => page(await client.listTools({ cursor }), 'tools'),
    prompts: async cursor => page(await client.listPrompts({ cursor }), 'prompts'),
    resources: async cursor => page(await client.listResources({ cursor }), 'resources'),
    templates: async cursor => page(await client.listResourceTemplates({ cursor }), 'resourceTemplates'),
    ping: async timeout => { await client.ping({ timeout }) },
    close: () => client.close(),
  }
}

/**
 * A Streamable HTTP server in the revision it offers: `server/discover` first, `initialize` when the
 * server is of the 2025 protocol. In the 2026-07-28 revision list changes arrive on a
 * `subscriptions/listen` stream, which the SDK opens for the handlers given here.
 */
export async function connectNegotiated(url: URL, init: { headers: Record<string, string>; fetch: (input: string | URL, init?: RequestInit) => Promise<Response> }, events: ClientEvents, timeoutMs: number): Promise<UpstreamClient> {
  const onChanged = (kind: ListKind) => ({ autoRefresh: false, debounceMs: 0, onChanged: () => events.changed(kind) })
  const client = new NegotiatingClient(clientInfo, {
    capabilities,
    versionNegotiation: { mode: 'auto' },
    listChanged: { tools: onChanged('tools'), resources: onChanged('resources'), prompts: onChanged('prompts') },
  })
  client.onclose = events.closed
  client.onerror = events.error
  // Asked as JSON-RPC requests (2025 protocol) or embedded in an input-required result (2026-07-28): the SDK calls these either way.
  for (const method of clientMethods) {
    client.setRequestHandler(method, (request, context) => events.request(method, request.params as Record<string, unknown> | undefined, context.mcpReq.signal) as never)
  }
  client.setNotificationHandler('notifications/message', notification => events.log(notification.params as LogParams))
  // What resources/subscribe asked for (a 2025-era server: the 2026-07-28 revision has no such method).
  client.setNotificationHandler('notifications/resources/updated', notification => events.updated(notification.params.uri))
  try {
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: init.headers }, fetch: init.fetch as typeof fetch }), { timeout: timeoutMs })
  } catch (error) {
    void client.close().catch(() => {})
    throw error
  }
  // The SDKs' result types differ only in their zod brands: the wire shapes are the same.
  const same = <T>(value: Promise<unknown>) => value as Promise<T>
  const fresh = { cacheMode: 'bypass' as const }
  const levelPerRequest = () => (client.getNegotiatedProtocolVersion() ?? '') >= '2026-07-28'
  // The 2026-07-28 revision asks for log notices per request, in `_meta`; the 2025 one by logging/setLevel.
  const leveled = <P extends object>(params: P, level: LoggingLevel | undefined): P => level && levelPerRequest()
    ? { ...params, _meta: { ...(params as { _meta?: object })._meta, [logLevelKey]: level } }
    : params
  return {
    get protocolVersion() { return client.getNegotiatedProtocolVersion() },
    capabilities: () => client.getServerCapabilities() as ServerCapabilities | undefined,
    get levelPerRequest() { return levelPerRequest() },
    setLoggingLevel: async (level, { logLevel: _level, ...options }) => { await client.setLoggingLevel(level, options) },
    callTool: (params, { tool, logLevel, ...options }) => same(client.callTool(leveled(params, logLevel), { ...options, resetTimeoutOnProgress: false, ...(tool && { toolDefinition: tool as never }) })),
    getPrompt: (params, { logLevel, ...options }) => same(client.getPrompt(leveled(params, logLevel), options)),
    readResource: (params, { logLevel, ...options }) => same(client.readResource(leveled(params, logLevel), { ...options, ...fresh })),
    subscribe: async (uri, { logLevel, ...options }) => { await client.subscribeResource(leveled({ uri }, logLevel), options) },
    unsubscribe: async (uri, { logLevel, ...options }) => { await client.unsubscribeResource(leveled({ uri }, logLevel), options) },
    complete: (params, { logLevel, ...options }) => same(client.complete(leveled(params, logLevel) as never, options)),
    tools: async cursor => page(await client.listTools({ cursor }, fresh), 'tools'),
    prompts: async cursor => page(await client.listPrompts({ cursor }, fresh), 'prompts'),
    resources: async cursor => page(await client.listResources({ cursor }, fresh), 'resources'),
    templates: async cursor => page(await client.listResourceTemplates({ cursor }, fresh), 'resourceTemplates'),
    ping: async timeout => { await client.ping({ timeout }) },
    close: () => client.close(),
  }
}

/**
 * The SDK handles a notification a microtask after it arrives, a response at once: a progress notice read
 * with its call's result (a stdio server writes both at once) came after the call had ended, and was
 * dropped. Responses are taken a microtask later too, so every message is handled in the order it came.
 */
function inOrder(transport: Transport): void {
  const handle = transport.onmessage
  if (!handle) return
  transport.onmessage = (message, extra) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) queueMicrotask(() => handle(message, extra))
    else handle(message, extra)
  }
}

function page<T>(result: Record<string, unknown>, key: string): Page<T> {
  return { items: (result[key] ?? []) as T[], nextCursor: typeof result.nextCursor === 'string' ? result.nextCursor : undefined }
}

/** Every page of a paginated list (bounded: a server that pages forever stops at 100 pages). */
export async function pages<T>(fetchPage: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const all: T[] = []
  let cursor: string | undefined
  for (let i = 0; i < 100; i++) {
    const page = await fetchPage(cursor)
    all.push(...page.items)
    cursor = page.nextCursor
    if (!cursor) break
  }
  return all
}
