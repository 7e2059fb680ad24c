export const maxFailures = 5
export const banMs = 30 * 60_000
export const idlePurgeMs = 2 * 60 * 60_000

export interface BanEntry { failures: number; bannedUntil: number; lastSeen: number }
type Entry = BanEntry

/** One more failure for an address; the fifth bans it (and starts the count again). */
export function countFailure(previous: BanEntry | undefined | null, now: number): BanEntry {
  const entry = { ...(previous ?? { failures: 0, bannedUntil: 0, lastSeen: now }) }
  entry.failures++
  entry.lastSeen = now
  if (entry.failures >= maxFailures) {
    entry.bannedUntil = now + banMs
    entry.failures = 0
  }
  return entry
}

/** Failed management attempts per remote address: 5 bans for 30 minutes; idle entries go after 2 hours. */
export class BanList {
  private entries = new Map<string, Entry>()
  constructor(private clock: () => number = Date.now) {}

  /** Milliseconds of ban left for this address (0 = not banned). */
  bannedFor(ip: string): number {
    this.purge()
    const entry = this.entries.get(ip)
    return entry ? Math.max(0, entry.bannedUntil - this.clock()) : 0
  }

  /** Count a failure; true when it was the one that banned the address. */
  fail(ip: string): boolean {
    const entry = countFailure(this.entries.get(ip), this.clock())
    this.entries.set(ip, entry)
    return entry.failures === 0
  }

  succeed(ip: string): void {
    this.entries.delete(ip)
  }

  get size(): number {
    this.purge()
    return this.entries.size
  }

  private purge(): void {
    const now = this.clock()
    for (const [ip, entry] of this.entries) {
      if (entry.bannedUntil <= now && now - entry.lastSeen > idlePurgeMs) this.entries.delete(ip)
    }
  }
}

/** `29m59s`, `45s`. */
export function formatWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000)
  const minutes = Math.floor(seconds / 60)
  return minutes ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`
}
