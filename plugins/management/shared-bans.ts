import type { ProxyKernel } from 'model-proxy'
import { BanList, countFailure, idlePurgeMs, type BanEntry } from './ban-list.ts'

const key = (ip: string) => `management:ban:${ip.replace(/:/g, '_')}`

/**
 * The ban list across instances: with Redis, failures and bans are counted in the shared store (an
 * address cannot spread its attempts over instances), besides this instance's own list, which is
 * what holds while Redis is away.
 */
export class SharedBans {
  readonly local: BanList

  constructor(private kernel: ProxyKernel, private clock: () => number = Date.now) {
    this.local = new BanList(clock)
  }

  private get shared(): boolean { return this.kernel.fleet.shared && this.kernel.fleet.health().up }

  async bannedFor(ip: string): Promise<number> {
    const local = this.local.bannedFor(ip)
    if (!this.shared) return local
    const entry = await this.kernel.storage.getItem<BanEntry>(key(ip)).catch(() => null)
    return Math.max(local, entry ? entry.bannedUntil - this.clock() : 0)
  }

  /** True when this failure banned the address. */
  async fail(ip: string): Promise<boolean> {
    const bannedHere = this.local.fail(ip)
    if (!this.shared) return bannedHere
    const stored = await this.kernel.storage.getItem<BanEntry>(key(ip)).catch(() => null)
    const entry = countFailure(stored, this.clock())
    await this.kernel.storage.setItem(key(ip), entry, { ttl: Math.ceil(idlePurgeMs / 1000) }).catch(() => {})
    return bannedHere || entry.failures === 0
  }

  async succeed(ip: string): Promise<void> {
    this.local.succeed(ip)
    if (this.shared) await this.kernel.storage.removeItem(key(ip)).catch(() => {})
  }
}
