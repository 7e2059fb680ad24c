import type { ProxyKernel } from 'model-proxy'
import { acquireLease } from 'model-proxy/kit/fleet'
import type { CredentialFileSync } from './fleet-sync.ts'

/** Longest a token refresh may hold its lease (a dead holder's lease expires by then). */
export const refreshLeaseMs = 60_000

/**
 * One instance at a time refreshes a credential file's token: with a rotating refresh token, two
 * concurrent refreshes would leave one instance with a revoked token. Under the lease: bring the file
 * in step first (another instance may just have refreshed it), refresh if still due, and share the new
 * token before the lease goes. Another instance holding the lease: skip, its token arrives by sync.
 * Redis away: refresh anyway (a token must not expire during an outage); the log says so.
 */
export async function refreshUnderLease(kernel: ProxyKernel, name: string, sync: CredentialFileSync | undefined, refresh: () => Promise<boolean>): Promise<boolean> {
  let lease
  try {
    lease = await acquireLease(kernel.fleet, `refresh:${name}`, refreshLeaseMs)
  } catch (error) {
    kernel.warnLimited('refresh-lease', `refreshing ${name} without the fleet's lease (${(error as Error).message})`)
    return refresh()
  }
  if (!lease) {
    kernel.logger.debug(`${name}: another instance is refreshing it`)
    return false
  }
  try {
    await sync?.reconcile(name)
    const refreshed = await refresh()
    if (refreshed) await sync?.reconcile(name)
    return refreshed
  } finally {
    await lease.release()
  }
}
