import { defineProxyPlugin, requestField } from 'model-proxy'
import type { ProxyKernel, ResponseContext } from 'model-proxy'
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
    // Before routing: a named response this proxy keeps becomes the whole conversation. One it does not
    // keep goes on as it came (a responses upstream may know it; any other reports it dropped).
    kernel.hooks.hook('route-resolve', async ({ request }) => {
      if (request.inbound !== 'responses') return
      const previous = requestField(request, 'previous_response_id')
      if (typeof previous !== 'string') return
      const items = await loadChain(kernel.storage, previous).catch((error) => { warn(error); return undefined })
      if (!items) return
      request.body = expandBody(request.body, items)
      // Decoded again from the expanded body when it crosses formats.
      request.canonical = undefined
    })
    kernel.hooks.hook('before-response', (ctx) => {
      if (!keepable(kernel, ctx)) return
      const body = ctx.request.body
      if (ctx.answer) void saveChain(kernel.storage, body, ctx.answer).catch(warn)
      else if (ctx.stream && ctx.sse !== false) ctx.stream = watchFinalResponse(ctx.stream, response => void saveChain(kernel.storage, body, response).catch(warn))
    })
  },
})
