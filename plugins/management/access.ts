import { getRequestIP, type H3Event } from 'h3'
import type { ProxyKernel } from '../../core/kernel.ts'
import { isLoopback } from '../../core/http/client-route.ts'
import { BanList, formatWait } from './ban-list.ts'
import { createSecretVerifier } from './secret.ts'
import { fail } from './respond.ts'

/** The presented management key: `Authorization: Bearer` or `X-Management-Key`. */
function presentedKey(event: H3Event): string | undefined {
  const header = event.req.headers.get('x-management-key')
  if (header) return header.trim()
  const auth = event.req.headers.get('authorization')
  const match = auth ? /^Bearer\s+(.+)$/i.exec(auth) : null
  return match ? match[1]!.trim() : undefined
}

export interface AccessOptions { clock?: () => number; env?: () => string | undefined }

/**
 * The spec's management access rules, in order: no secret at all -> 404; remote and not allowed -> 403;
 * remote and banned -> 403; no key -> 401; wrong key -> 401 (remote failures count towards a ban).
 * Returns a refusal Response, or undefined to let the request through.
 */
export function createAccessGuard(kernel: ProxyKernel, options: AccessOptions = {}) {
  const bans = new BanList(options.clock)
  const verify = createSecretVerifier()
  const env = options.env ?? (() => process.env.MANAGEMENT_PASSWORD || undefined)
  return {
    bans,
    async check(event: H3Event): Promise<Response | undefined> {
      const password = env()
      const hash = kernel.config['remote-management']['secret-key']
      if (!password && !hash) return fail(404, 'management API disabled')
      const ip = kernel.services.clientAddress?.(event) ?? getRequestIP(event) ?? ''
      const remote = !isLoopback(ip)
      if (remote && !password && !kernel.config['remote-management']['allow-remote']) return fail(403, 'remote management disabled')
      if (remote) {
        const left = bans.bannedFor(ip)
        if (left > 0) return fail(403, `IP banned due to too many failed attempts. Try again in ${formatWait(left)}`)
      }
      const key = presentedKey(event)
      if (!key) {
        if (remote) bans.fail(ip)
        return fail(401, 'missing management key')
      }
      if (!await verify(key, password, hash)) {
        if (remote) bans.fail(ip)
        return fail(401, 'invalid management key')
      }
      if (remote) bans.succeed(ip)
      return undefined
    },
  }
}
