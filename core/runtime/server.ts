import { Server as NetServer, type Socket } from 'node:net'
import type { IncomingMessage, ServerResponse, Server as HttpServer } from 'node:http'
import { serve, type Server } from 'srvx'
import { plugin as websockets } from 'crossws/server'
import type { Proxy } from '../app.ts'
import type { ProxyConfig } from '../config/schema.ts'
import { closeUpstreamPools } from '../upstream/send.ts'
import { answerProtocolErrors, pathErrorBody } from '../errors/path-errors.ts'

/** What a drain asks of the app(s) behind the server: their answers, those over WebSockets included. */
export interface DrainHooks {
  /** Answers still in progress: streams sending, requests waiting for their upstream. */
  openAnswers?(): number
  /** End them now in their client's format (an error event, or an error response). */
  endAnswers?(): void
}

export interface RunningServer {
  server: Server
  url: string
  /**
   * Stop accepting; let open requests and streams finish for up to `drainMs`; then end the rest in
   * their client's format, give those last bytes a moment, and close everything.
   */
  close(drainMs?: number, hooks?: DrainHooks): Promise<void>
}

/** After the window, how long the answers just ended get to flush. */
const flushMs = 1000
/**
 * Once nothing runs, how long kept-alive connections stay open: a client that sends its next request
 * on one right after its last answer gets the 503 (and Connection: close) instead of a reset.
 */
const lingerMs = 250

/**
 * Listen per config: `host` empty = every IPv4 and IPv6 interface, `tls.enable` = https. `fetch` is
 * looked up per request so a reload can swap the app without closing the socket (or open streams).
 */
export async function listen(getProxy: () => Proxy, config: ProxyConfig, overrides: { port?: number; host?: string } = {}): Promise<RunningServer> {
  const tls = config.tls.enable ? { cert: config.tls.cert, key: config.tls.key } : undefined
  const server = serve({
    fetch: request => getProxy().fetch(request),
    port: overrides.port ?? config.port,
    hostname: (overrides.host ?? config.host) || undefined,
    tls,
    silent: true,
    gracefulShutdown: false,
    // crossws finds each route's WebSocket hooks by calling the app's own fetch on the upgrade request.
    plugins: [websockets({})],
  })
  await server.ready()
  const node = server.node!.server! as HttpServer
  const inFlight = trackRequests(node)
  answerProtocolErrors(node, (path, info) => pathErrorBody(getProxy().kernel, path, info))
  const address = node.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const host = (overrides.host ?? config.host) || 'localhost'
  const url = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`
  return {
    server,
    url,
    async close(drainMs = 0, hooks = {}) {
      // Only the listener closes now: http's own close() would also drop kept-alive connections at once,
      // resetting a request a client is sending on one. Those get a 503 with Connection: close instead.
      if (node.listening) NetServer.prototype.close.call(node)
      if (drainMs > 0) {
        const busy = () => inFlight.count > 0 || (hooks.openAnswers?.() ?? 0) > 0
        if (!await until(() => !busy(), drainMs)) {
          hooks.endAnswers?.()
          await until(() => !busy(), flushMs)
        }
        await new Promise(resolve => setTimeout(resolve, lingerMs))
        await until(() => !busy(), flushMs)
      }
      // (An https server is an HTTP/2 one with HTTP/1.1 allowed: it has no closeAllConnections; srvx closes its sessions.)
      if ('closeAllConnections' in node) node.closeAllConnections()
      for (const socket of inFlight.upgraded) socket.destroy()
      await server.close(true)
      await closeUpstreamPools(drainMs > 0)
    },
  }
}

/** Poll (only while draining) until `done()`; false when `ms` ran out first. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() >= deadline) return false
    await new Promise(resolve => setTimeout(resolve, Math.min(50, deadline - Date.now())))
  }
  return true
}

/** Requests whose response has not closed yet, and upgraded (WebSocket) sockets. */
function trackRequests(node: HttpServer) {
  let count = 0
  const upgraded = new Set<Socket>()
  node.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    count++
    res.once('close', () => { count-- })
  })
  node.on('upgrade', (_req: IncomingMessage, socket: Socket) => {
    upgraded.add(socket)
    socket.once('close', () => upgraded.delete(socket))
  })
  return { get count() { return count }, upgraded }
}
