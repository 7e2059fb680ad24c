import { randomBytes } from 'node:crypto'
import type { Fleet } from './fleet.ts'

export interface Lease { release(): Promise<void> }

const releaseScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`

/**
 * A lease on `name` for up to `ttlMs`: held by one instance at a time (SET NX PX), released by its
 * holder only, and gone by itself if the holder dies. Undefined: another instance holds it. A fleet of
 * one always gets it. Rejects with FleetOfflineError while Redis is away (the caller decides).
 */
export async function acquireLease(fleet: Fleet, name: string, ttlMs: number): Promise<Lease | undefined> {
  if (!fleet.shared) return { release: async () => {} }
  const key = fleet.key(`fleet:lease:${name}`)
  const token = `${fleet.instanceId}:${randomBytes(6).toString('hex')}`
  const got = await fleet.eval(`return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`, [key], [token, ttlMs])
  if (!got) return undefined
  return { release: () => fleet.eval(releaseScript, [key], [token]).then(() => {}, () => {}) }
}
