import { randomUUID } from 'node:crypto'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import {
  CallToolRequestSchema, CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema, ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'

/**
 * A 2025-era MCP server over Streamable HTTP (sessions kept, as servers that ask their client must)
 * whose tools ask the client during the call, each in the call's answer stream:
 * `ask` elicits a name (the tool's argument `who` goes in the question), `sample` samples the model,
 * `roots` lists the client's roots. Each tool answers with what the client answered, as JSON text.
 */
export function askingServer(): (request: Request) => Promise<Response> {
  const transports = new Map<string, WebStandardStreamableHTTPServerTransport>()
  const open = async () => {
    const server = new Server({ name: 'asking', version: '1' }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: ['ask', 'sample', 'roots'].map(name => ({ name, inputSchema: { type: 'object' as const, properties: { who: { type: 'string' } } } })),
    }))
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const who = String(request.params.arguments?.who ?? 'you')
      const answer = request.params.name === 'ask'
        ? await extra.sendRequest({ method: 'elicitation/create', params: { message: `Name for ${who}?`, requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } }, ElicitResultSchema, { timeout: 600_000 })
        : request.params.name === 'sample'
          ? await extra.sendRequest({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: `Hello from ${who}` } }], maxTokens: 10 } }, CreateMessageResultSchema, { timeout: 600_000 })
          : await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema, { timeout: 600_000 })
      return { content: [{ type: 'text' as const, text: JSON.stringify(answer) }] }
    })
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: id => { transports.set(id, transport) },
    })
    await server.connect(transport)
    return transport
  }
  return async request => {
    const id = request.headers.get('mcp-session-id')
    const transport = id ? transports.get(id) : await open()
    if (!transport) return new Response('unknown session', { status: 404 })
    return transport.handleRequest(request)
  }
}
