import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema, CompleteRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { KeyAccess } from './access.ts'
import type { Gateway } from './gateway.ts'

export interface Caller {
  keyId: string
  access: () => KeyAccess
  /** Aborted when the client cancels this request id (it may arrive on another request or instance). */
  cancelled(requestId: string | number): AbortSignal | undefined
}

const serverInfo = { name: 'model-proxy-mcp-gateway', title: 'model proxy MCP gateway', version: '1' }

/**
 * The gateway as one MCP server for one caller: the SDK's `Server` does the protocol, the handlers ask
 * the gateway with the caller's access. Made per HTTP exchange (sessions live in storage, not here).
 */
export function gatewayServer(gateway: Gateway, caller: Caller): Server {
  const server = new Server(serverInfo, {
    capabilities: { completions: {}, tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } },
    instructions: 'Tools, resources and prompts of the MCP servers this proxy fronts, each named after its server (server__tool).',
  })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: gateway.listTools(caller.access()) }))
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const progressToken = request.params._meta?.progressToken
    const cancelled = caller.cancelled(extra.requestId)
    return gateway.callTool({
      keyId: caller.keyId,
      access: caller.access(),
      signal: cancelled ? AbortSignal.any([extra.signal, cancelled]) : extra.signal,
      onprogress: progressToken === undefined ? undefined : (progress) => {
        void extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => {})
      },
    }, request.params.name, request.params.arguments)
  })
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: gateway.listPrompts(caller.access()) }))
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) => gateway.getPrompt(caller.access(), request.params.name, request.params.arguments, extra.signal))
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: gateway.listResources(caller.access()) }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: gateway.listResourceTemplates(caller.access()) }))
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => gateway.readResource(caller.access(), request.params.uri, extra.signal))
  server.setRequestHandler(CompleteRequestSchema, (request, extra) => gateway.complete(caller.access(), request.params, extra.signal))
  return server
}
