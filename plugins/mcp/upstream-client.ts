import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema,
  type CallToolResult, type CompleteResult, type GetPromptResult, type Prompt, type ReadResourceResult, type Resource,
  type ResourceTemplate, type ServerCapabilities, type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { Client as NegotiatingClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'

export type ListKind = 'tools' | 'resources' | 'prompts'

export interface CallOptions { signal?: AbortSignal; timeout?: number }

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
  callTool(params: { name: string; arguments?: Record<string, unknown> }, options: CallOptions & { onprogress?: (progress: { progress: number; total?: number; message?: string }) => void; tool?: Tool }): Promise<CallToolResult>
  getPrompt(params: { name: string; arguments?: Record<string, string> }, options: CallOptions): Promise<GetPromptResult>
  readResource(params: { uri: string }, options: CallOptions): Promise<ReadResourceResult>
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
  closed(): void
  error(error: Error): void
}

const clientInfo = { name: 'model-proxy-mcp-gateway', version: '1' }

/** The 2025 handshake over `transport` (stdio, legacy SSE). */
export async function connectLegacy(transport: Transport, events: ClientEvents, timeoutMs: number): Promise<UpstreamClient> {
  const client = new Client(clientInfo, { capabilities: {} })
  client.onclose = events.closed
  client.onerror = events.error
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.changed('tools'))
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => events.changed('resources'))
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => events.changed('prompts'))
  try {
    await client.connect(transport, { timeout: timeoutMs })
  } catch (error) {
    void client.close().catch(() => {})
    throw error
  }
  return {
    // SDK 1 does not tell which 2025-era version the handshake settled on.
    protocolVersion: undefined,
    capabilities: () => client.getServerCapabilities(),
    callTool: (params, { tool: _tool, ...options }) => client.callTool(params, undefined, { ...options, resetTimeoutOnProgress: false }) as Promise<CallToolResult>,
    getPrompt: (params, options) => client.getPrompt(params, options),
    readResource: (params, options) => client.readResource(params, options),
    complete: (params, options) => client.complete(params, options),
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
    capabilities: {},
    versionNegotiation: { mode: 'auto' },
    listChanged: { tools: onChanged('tools'), resources: onChanged('resources'), prompts: onChanged('prompts') },
  })
  client.onclose = events.closed
  client.onerror = events.error
  try {
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: init.headers }, fetch: init.fetch as typeof fetch }), { timeout: timeoutMs })
  } catch (error) {
    void client.close().catch(() => {})
    throw error
  }
  // The SDKs' result types differ only in their zod brands: the wire shapes are the same.
  const same = <T>(value: Promise<unknown>) => value as Promise<T>
  const fresh = { cacheMode: 'bypass' as const }
  return {
    get protocolVersion() { return client.getNegotiatedProtocolVersion() },
    capabilities: () => client.getServerCapabilities() as ServerCapabilities | undefined,
    callTool: (params, { tool, ...options }) => same(client.callTool(params, { ...options, resetTimeoutOnProgress: false, ...(tool && { toolDefinition: tool as never }) })),
    getPrompt: (params, options) => same(client.getPrompt(params, options)),
    readResource: (params, options) => same(client.readResource(params, { ...options, ...fresh })),
    complete: (params, options) => same(client.complete(params as never, options)),
    tools: async cursor => page(await client.listTools({ cursor }, fresh), 'tools'),
    prompts: async cursor => page(await client.listPrompts({ cursor }, fresh), 'prompts'),
    resources: async cursor => page(await client.listResources({ cursor }, fresh), 'resources'),
    templates: async cursor => page(await client.listResourceTemplates({ cursor }, fresh), 'resourceTemplates'),
    ping: async timeout => { await client.ping({ timeout }) },
    close: () => client.close(),
  }
}

function page<T>(result: Record<string, unknown>, key: string): Page<T> {
  return { items: (result[key] ?? []) as T[], nextCursor: typeof result.nextCursor === 'string' ? result.nextCursor : undefined }
}
