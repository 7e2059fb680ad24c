import { getRequestIP, type H3Event } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { isLoopback } from 'model-proxy/kit/access'
import { createKeyedQueue } from 'model-proxy/kit/guards'
import { banMs, formatWait, maxFailures } from './ban-list.ts'
import { SharedBans } from './shared-bans.ts'
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
  const bans = new SharedBans(kernel, options.clock)
  const verify = createSecretVerifier()
  const env = options.env ?? (() => process.env.MANAGEMENT_PASSWORD || undefined)
  // Failed logins and bans are logged (rate-limited: a flood of attempts cannot flood the log).
  const failed = async (ip: string, remote: boolean, why: string) => {
    kernel.warnLimited('management-login', `management login failed from ${ip}: ${why}`)
    if (remote && await bans.fail(ip)) kernel.warnLimited('management-ban', `management: ${ip} banned for ${banMs / 60_000} minutes after ${maxFailures} failed logins`)
  }
  const oneAtATime = createKeyedQueue()
  const checkKey = async (event: H3Event, ip: string, remote: boolean, password: string | undefined, hash: string): Promise<Response | undefined> => {
    if (remote) {
      const left = await bans.bannedFor(ip)
      if (left > 0) {
        kernel.warnLimited('management-banned', `management: refused ${ip} (banned for ${formatWait(left)} more)`)
        return fail(403, `IP banned due to too many failed attempts. Try again in ${formatWait(left)}`)
      }
    }
    const key = presentedKey(event)
    if (!key) {
      await failed(ip, remote, 'no key')
      return fail(401, 'missing management key')
    }
    if (!await verify(key, password, hash)) {
      await failed(ip, remote, 'wrong key')
      return fail(401, 'invalid management key')
    }
    if (remote) await bans.succeed(ip)
    return undefined
  }
  return {
    bans,
    async check(event: H3Event): Promise<Response | undefined> {
      const password = env()
      const hash = kernel.config['remote-management']['secret-key']
      if (!password && !hash) return fail(404, 'management API disabled')
      const ip = kernel.services.clientAddress?.(event) ?? getRequestIP(event) ?? ''
      const remote = !isLoopback(ip)
      if (remote && !password && !kernel.config['remote-management']['allow-remote']) return fail(403, 'remote management disabled')
      // A remote address's checks run one at a time: a burst of guesses sent at once would all pass the
      // ban check before the first failure was counted, and be tried beyond the 5 a ban allows.
      return remote ? oneAtATime(ip, () => checkKey(event, ip, true, password, hash)) : checkKey(event, ip, false, password, hash)
    },
  }
}
