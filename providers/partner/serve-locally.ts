import type { H3Event } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { trustedClient } from 'model-proxy/kit/access'
import { defineObjectState } from 'model-proxy/kit/http'

/** Carries a mapping target on an in-process request; a network request cannot carry a symbol. */
export const partnerTarget = defineObjectState<Request, string>('partner-target', { shared: true })

/** Only what the client endpoints read; the key was checked on the alias route already. */
const forwarded = ['content-type', 'user-agent', 'accept', 'anthropic-version', 'anthropic-beta', 'x-request-id']

/**
 * Serve a provider-alias request with the ordinary client endpoint (`/v1/chat/completions`,
 * `/v1/messages`, `/v1beta/models/...`) through the proxy's own app, as already authorized: routing,
 * translation, streaming and errors are exactly those of the endpoint. With `target`, the candidates
 * are the mapped model's (`route-resolve` below) while the answer keeps the name the client asked for.
 */
export async function serveLocally(kernel: ProxyKernel, event: H3Event, localPath: string, body: string, clientKey: string | undefined, target?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  for (const name of forwarded) {
    const value = event.req.headers.get(name)
    if (value) headers[name] = value
  }
  if (event.context.requestId) headers['x-request-id'] = event.context.requestId
  const url = new URL(localPath + event.url.search, 'http://proxy.internal')
  url.searchParams.delete('key')
  const request = new Request(url, { method: 'POST', headers, body, signal: event.req.signal })
  trustedClient.set(request, clientKey ?? true)
  if (target !== undefined) partnerTarget.set(request, target)
  return await kernel.app.fetch(request)
}

/** `route-resolve` for mapped requests: the target's candidates replace the (absent or forced-over) local ones. */
export function addMappedCandidates(kernel: ProxyKernel): void {
  kernel.hooks.hook('route-resolve', (ctx) => {
    const target = partnerTarget.get(ctx.request.event.req)
    if (target !== undefined) ctx.candidates = kernel.models.get(target) ?? []
  })
}
