import type { H3Event } from 'h3'
import { ProxyError, type ProxyKernel, type WireFormat } from 'model-proxy'
import { authorizeClient, trustedClient } from 'model-proxy/kit/access'
import { errorResponse, toErrorInfo } from 'model-proxy/kit/errors'
import type { Gateway, CallContext } from '../gateway.ts'
import { peekNodeBody } from './body-replay.ts'
import { callSelf, sendSelf } from './self-call.ts'
import { mcpToolsOf, runResponsesLoop } from './responses-loop.ts'
import { mcpServersOfBody, runMessagesLoop } from './messages-loop.ts'
import { liveAnswer, type LiveFormat, type LoopTurns } from './live-answer.ts'
import { liveResponses } from './live-responses.ts'
import { liveMessages } from './live-messages.ts'
import { withSseKeepalive } from '../../keepalive/api.ts'

type LoopResult = { status: number; body: Record<string, unknown> }
type Loop = (gateway: Gateway, context: CallContext, body: Record<string, unknown>, turns: LoopTurns) => Promise<LoopResult>

interface LoopRoute {
  path: string
  format: WireFormat
  /** Gateway server names the request asks for (none: not an MCP request). */
  servers(body: Record<string, unknown>): string[]
  /** A cheap look at the headers first: false when the request cannot be one. */
  may?(event: H3Event): boolean
  run: Loop
  /** A streamed request's answer, written while the loop runs. */
  live(write: (text: string) => void): LiveFormat
}

const loopRoutes: LoopRoute[] = [
  { path: '/v1/responses', format: 'responses', servers: body => mcpToolsOf(body).map(tool => tool.server_label), run: runResponsesLoop, live: liveResponses },
  {
    path: '/v1/messages', format: 'messages', servers: body => mcpServersOfBody(body).map(server => server.name), run: runMessagesLoop, live: liveMessages,
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
        const headers = event.req.headers
        if (body.stream === true) return await streamed(route, turns => route.run(gateway, context, body, turns), (next, signal) => sendSelf(kernel, route.path, headers, next, key, signal), kernel.config.streaming['keepalive-seconds'])
        const result = await route.run(gateway, context, body, { send: next => callSelf(kernel, route.path, headers, next, key), made: () => {} })
        return new Response(JSON.stringify(result.body), { status: result.status, headers: { 'content-type': 'application/json' } })
      } catch (error) {
        return errorResponse(kernel, route.format, toErrorInfo(error))
      }
    }, { method: 'POST' })
  }
}

/**
 * A streamed loop: each turn streamed from the model and relayed as it comes (text token by token),
 * the loop's own items written as they are made. Until the first byte is written the answer may still
 * be the first turn's error with its status; after it, an error is the format's error event.
 */
async function streamed(route: LoopRoute, run: (turns: LoopTurns) => Promise<LoopResult>, send: (body: Record<string, unknown>, signal: AbortSignal) => Promise<Response>, keepaliveSeconds: number): Promise<Response> {
  const answer = liveAnswer(route.live, send)
  const loop = run(answer.turns)
  const first = await Promise.race([answer.opened.then(() => undefined), loop])
  if (first && !answer.written && first.status !== 200) return new Response(JSON.stringify(first.body), { status: first.status, headers: { 'content-type': 'application/json' } })
  loop.then(result => answer.finish(result), (error: unknown) => answer.finish({ status: 500, body: { error: { type: 'api_error', message: (error as Error).message } } }))
  // The pipeline's keep-alive reaches only each turn's stream, which the loop reads; this answer is the loop's.
  const body = keepaliveSeconds > 0 ? withSseKeepalive(answer.body, keepaliveSeconds) : answer.body
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } })
}
