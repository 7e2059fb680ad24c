import type { H3Event } from 'h3'
import { ProxyError, type ProxyKernel, type WireFormat } from 'model-proxy'
import { authorizeClient, trustedClient } from 'model-proxy/kit/access'
import { errorResponse, toErrorInfo } from 'model-proxy/kit/errors'
import type { Gateway, CallContext } from '../gateway.ts'
import { peekNodeBody } from './body-replay.ts'
import { callSelf } from './self-call.ts'
import { mcpToolsOf, runResponsesLoop } from './responses-loop.ts'
import { mcpServersOfBody, runMessagesLoop } from './messages-loop.ts'
import { messagesEvents, responsesEvents } from './stream-out.ts'

type Loop = (gateway: Gateway, context: CallContext, body: Record<string, unknown>, send: (body: Record<string, unknown>) => Promise<{ status: number; json: Record<string, unknown> | undefined }>) => Promise<{ status: number; body: Record<string, unknown> }>

interface LoopRoute {
  path: string
  format: WireFormat
  /** Gateway server names the request asks for (none: not an MCP request). */
  servers(body: Record<string, unknown>): string[]
  /** A cheap look at the headers first: false when the request cannot be one. */
  may?(event: H3Event): boolean
  run: Loop
  events(body: Record<string, unknown>): string
}

const loopRoutes: LoopRoute[] = [
  { path: '/v1/responses', format: 'responses', servers: body => mcpToolsOf(body).map(tool => tool.server_label), run: runResponsesLoop, events: responsesEvents },
  {
    path: '/v1/messages', format: 'messages', servers: body => mcpServersOfBody(body).map(server => server.name), run: runMessagesLoop, events: messagesEvents,
    // The vendor takes `mcp_servers` only with its MCP feature named in a header (`mcp-client-<date>`).
    may: event => [...event.req.headers].some(([name, value]) => name.startsWith('anthropic-') && value.includes('mcp-client')),
  },
]

/**
 * MCP tools for every family: a responses request with `mcp` tools, or a messages request with
 * `mcp_servers`, whose model an upstream of another format serves, runs its tool loop here against
 * the gateway's servers. Registered only on these two paths, and it reads nothing unless the gateway
 * has servers; a request that is not such a request goes on to its route with its bytes as they came.
 */
export function addToolLoop(kernel: ProxyKernel, gateway: Gateway, caller: (key: string | undefined) => { keyId: string; access: () => CallContext['access'] }): void {
  for (const route of loopRoutes) {
    kernel.app.use(route.path, async (event) => {
      if (!gateway.servers.size || trustedClient.get(event.req) || route.may?.(event) === false) return
      const bytes = await peekNodeBody(event)
      if (!bytes || bytes.indexOf('"mcp') < 0) return
      let body: Record<string, unknown>
      try {
        body = JSON.parse(bytes.toString('utf8'))
      } catch {
        return
      }
      const wanted = route.servers(body)
      const candidates = typeof body.model === 'string' ? kernel.models.get(body.model) : undefined
      if (!wanted.length || !candidates?.length) return
      // An upstream of the client's own format calls MCP servers itself: the request passes untouched.
      if (kernel.providers.get(candidates[0].credential.family)?.format === route.format) return
      try {
        const key = authorizeClient(kernel, event)
        const unknown = wanted.filter(name => !gateway.servers.has(name))
        if (unknown.length) {
          throw new ProxyError(400, `MCP server ${JSON.stringify(unknown[0])} is not a server of this proxy's gateway, and the upstream of ${JSON.stringify(body.model)} cannot call MCP servers itself; name a gateway server (its name in mcp-servers)`, 'invalid_request_error')
        }
        const who = caller(key)
        const context: CallContext = { keyId: who.keyId, access: who.access(), signal: event.req.signal }
        const result = await route.run(gateway, context, body, next => callSelf(kernel, route.path, event.req.headers, next, key))
        if (result.status === 200 && body.stream === true) {
          return new Response(route.events(result.body), { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } })
        }
        return new Response(JSON.stringify(result.body), { status: result.status, headers: { 'content-type': 'application/json' } })
      } catch (error) {
        return errorResponse(kernel, route.format, toErrorInfo(error))
      }
    }, { method: 'POST' })
  }
}
