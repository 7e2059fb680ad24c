import { serve, type Server } from 'srvx'
import { plugin as websockets } from 'crossws/server'
import type { Proxy } from './app.ts'
import type { ProxyConfig } from './config/schema.ts'
import { closeUpstreamPools } from './http/upstream.ts'

export interface RunningServer { server: Server; url: string; close(drainMs?: number): Promise<void> }

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
  const address = server.node?.server?.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const host = (overrides.host ?? config.host) || 'localhost'
  const url = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`
  return {
    server,
    url,
    /** Stop accepting, let open requests and streams finish for up to `drainMs`, then cut the rest. */
    async close(drainMs = 0) {
      if (drainMs > 0) await Promise.race([server.close(false), new Promise(resolve => setTimeout(resolve, drainMs).unref())])
      await server.close(true)
      await closeUpstreamPools()
    },
  }
}
