import type { H3Event } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { readClientKey, checkClientAccess, type SocketPeer } from 'model-proxy/kit/access'
import { pathErrorResponse, toErrorInfo, genericErrorBody } from 'model-proxy/kit/errors'

/** The client of an upgrade request: its key (header or `?key=`), address and headers. */
export function socketPeer(request: Request): SocketPeer {
  return { key: readClientKey(request.headers, new URL(request.url)), ip: (request as { ip?: string }).ip, headers: request.headers }
}

/** Check the upgrade request's client as a client endpoint would; throws a 401/403 Response to refuse. */
export function authorizeUpgrade(kernel: ProxyKernel, peer: SocketPeer): void {
  try {
    checkClientAccess(kernel, peer.key, () => peer.ip, peer.headers)
  } catch (error) {
    const info = toErrorInfo(error)
    throw new Response(JSON.stringify(genericErrorBody(info)), { status: info.status, headers: { 'content-type': 'application/json' } })
  }
}

/** A plain GET on a socket path: 426 in the format of the path's clients, not a bare text line. */
export const upgradeRequired = (kernel: ProxyKernel) => (event: H3Event) =>
  pathErrorResponse(kernel, event.url.pathname, { status: 426, message: 'this path is a WebSocket: send the request with Upgrade: websocket', type: 'invalid_request_error', code: 'upgrade_required' }, { upgrade: 'websocket' })
