import { defineProxyPlugin, requestField, ProxyError, type ProxyKernel, type ProxyRequest, type ResponseContext } from 'model-proxy'
import { expandBody, loadChain, saveChain } from './chain.ts'
import { watchFinalResponse } from './completed-event.ts'

/** A responses-client answer the proxy translated from another format, which that vendor does not keep. */
function keepable(kernel: ProxyKernel, ctx: ResponseContext): boolean {
  const { request, candidate } = ctx
  if (request.inbound !== 'responses' || request.endpoint !== 'responses' || requestField(request, 'store') === false || !candidate) return false
  return kernel.providers.get(candidate.credential.family)?.format !== 'responses'
}

/** `previous_response_id` over HTTP toward every family (see chain.ts). */
export default defineProxyPlugin({
  name: 'response-chain',
  setup(kernel) {
    const warn = (error: unknown) => kernel.logger.warn(`response-chain: ${(error as Error).message}`)
    /** Requests naming a response this proxy does not keep (or could not read: the store is away), for the upstream check below. */
    const unknown = new WeakMap<ProxyRequest, { id: string; unreadable: boolean }>()
    // Before routing: a named response this proxy keeps becomes the whole conversation. One it does not
    // keep goes on as it came: a responses upstream may know it (its vendor keeps its own answers).
    kernel.hooks.hook('route-resolve', async ({ request }) => {
      if (request.inbound !== 'responses') return
      const previous = requestField(request, 'previous_response_id')
      if (typeof previous !== 'string') return
      // A shared store known to be away is not waited on (each read would wait for its reconnect).
      let unreadable = !kernel.fleet.health().up
      const items = unreadable ? undefined : await loadChain(kernel.storage, previous).catch((error) => { warn(error); unreadable = true; return undefined })
      if (!items) {
        unknown.set(request, { id: previous, unreadable })
        return
      }
      request.body = expandBody(request.body, items)
      // Decoded again from the expanded body when it crosses formats.
      request.canonical = undefined
    })
    // Toward any other format nobody has it: the client gets what the responses vendor answers for an id
    // it never issued (404, previous_response_not_found), not an answer that forgot the conversation; or,
    // when the store could not be read, a 503 (SDKs retry it): the response may well exist.
    kernel.hooks.hook('before-upstream', ({ request, candidate }) => {
      const named = unknown.get(request)
      if (named === undefined || kernel.providers.get(candidate.credential.family)?.format === 'responses') return
      if (named.unreadable) throw new ProxyError(503, `Previous response with id '${named.id}' cannot be read now: the proxy's shared store is unreachable. Try again shortly.`, 'server_error', 'previous_response_unavailable')
      throw new ProxyError(404, `Previous response with id '${named.id}' not found.`, 'invalid_request_error', 'previous_response_not_found')
    })
    kernel.hooks.hook('before-response', (ctx) => {
      if (!keepable(kernel, ctx)) return
      const body = ctx.request.body
      if (ctx.answer) void saveChain(kernel.storage, body, ctx.answer).catch(warn)
      else if (ctx.stream && ctx.sse !== false) ctx.stream = watchFinalResponse(ctx.stream, response => void saveChain(kernel.storage, body, response).catch(warn))
    })
  },
})
