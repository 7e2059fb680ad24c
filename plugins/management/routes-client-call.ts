import { getQuery } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { trustedClient } from 'model-proxy/kit/access'
import { addManagementRoute, type Guard } from './route.ts'
import { ManagementError } from './respond.ts'

/** Keys and transport headers stay behind; every other header (format versions, betas) is the client's and goes on. */
const notForwarded = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'x-management-key', 'cookie', 'host', 'content-length', 'connection', 'transfer-encoding', 'accept-encoding'])
const clientPaths = /^\/(v1|v1beta)\//

const base = 'http://proxy.internal'

/**
 * The URL a `path` makes, checked as resolved (`%2e%2e`, `\` and `..` climb as the URL parser makes them
 * climb): checked before it was resolved, `/v1/%2e%2e/v0/management/config` reached the management API.
 */
function resolvedClientPath(path: string): URL | undefined {
  if (!path.startsWith('/')) return undefined
  let url: URL
  try {
    url = new URL(path, base)
  } catch {
    return undefined
  }
  return url.origin === base && clientPaths.test(url.pathname) ? url : undefined
}

/**
 * `POST /v0/management/client-call?path=/v1/chat/completions`: one client request sent by the
 * signed-in operator (the panel's Chat page and its "try it" traffic), through the proxy's own
 * client route in-process, so it is routed, counted, recorded and logged like any client's. The
 * management key stands for the client key; the answer (a stream too) is the client route's own.
 */
export function addClientCallRoute(kernel: ProxyKernel, guard: Guard): void {
  addManagementRoute(kernel, guard, 'POST', '/client-call', async (event) => {
    const target = resolvedClientPath(String((getQuery(event) as { path?: unknown }).path ?? ''))
    if (!target) throw new ManagementError(400, 'invalid path', { message: 'path must be a client endpoint under /v1/ or /v1beta/' })
    const headers: Record<string, string> = {}
    event.req.headers.forEach((value, name) => { if (!notForwarded.has(name)) headers[name] = value })
    const request = new Request(target, { method: 'POST', headers, body: await event.req.text() })
    // In-process and already authorized by the management key: no client key.
    trustedClient.set(request, true)
    return kernel.app.fetch(request)
  })
}
