import { getRequestIP, type H3Event } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { isLoopback } from 'model-proxy/kit/access'
import { createSecretVerifier, formatWait } from '../management/api.ts'

export interface MetricsSettings { enable: boolean; path: string; 'require-key': boolean | 'auto' }

const refuse = (status: number, error: string) => new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } })

/** The management key as the management API takes it: `Authorization: Bearer` or `X-Management-Key`. */
function presentedKey(event: H3Event): string | undefined {
  const header = event.req.headers.get('x-management-key')
  if (header) return header.trim()
  const match = /^Bearer\s+(.+)$/i.exec(event.req.headers.get('authorization') ?? '')
  return match ? match[1]!.trim() : undefined
}

/**
 * Who may scrape. `require-key` off: anyone who reaches the port. `auto` (the default): loopback
 * scrapers as they are, remote ones (the port is reachable beyond loopback) as with on. On: the management key, with the
 * management API's ban list for remote addresses (the metrics path is no way around it); with no
 * management secret at all, only loopback scrapers. Returns a refusal, or undefined to serve.
 */
export function createMetricsAccess(kernel: ProxyKernel, env: () => string | undefined = () => process.env.MANAGEMENT_PASSWORD || undefined) {
  const verify = createSecretVerifier()
  return async (event: H3Event, settings: MetricsSettings): Promise<Response | undefined> => {
    if (!settings['require-key']) return undefined
    const ip = kernel.services.clientAddress?.(event) ?? getRequestIP(event) ?? ''
    const remote = !isLoopback(ip)
    if (settings['require-key'] === 'auto' && !remote) return undefined
    const password = env()
    const hash = kernel.config['remote-management']['secret-key']
    if (!password && !hash) return remote ? refuse(403, 'metrics require the management key, and no management secret is set: only local scrapers are served') : undefined
    const bans = kernel.services.managementGuard?.bans
    if (remote && bans) {
      const left = await bans.bannedFor(ip)
      if (left > 0) return refuse(403, `IP banned due to too many failed attempts. Try again in ${formatWait(left)}`)
    }
    const key = presentedKey(event)
    if (!key || !await verify(key, password, hash)) {
      if (remote) await bans?.fail(ip)
      return refuse(401, key ? 'invalid management key' : 'missing management key')
    }
    if (remote) await bans?.succeed(ip)
    return undefined
  }
}
