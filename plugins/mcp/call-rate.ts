import type { Fleet } from 'model-proxy/kit/fleet'

const windowMs = 60_000

/**
 * One sliding minute of calls per key, in a sorted set: drop what left the window, count, add if there
 * is room. Atomic, so instances on one Redis share each key's rate.
 */
const takeScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - ${windowMs})
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ${windowMs})
return 1`

/**
 * Tool calls per key in the last minute. With Redis (the fleet shared and up) the count is the
 * fleet's; without it, or while Redis is away, each instance counts its own.
 */
export class CallRate {
  private readonly calls = new Map<string, number[]>()
  private sequence = 0

  constructor(private readonly fleet?: Fleet) {}

  /** Counts a call if the key has room under `perMinute`; false when it has none. */
  async take(key: string, perMinute: number, now = Date.now()): Promise<boolean> {
    if (this.fleet?.shared && this.fleet.health().up) {
      try {
        return await this.fleet.eval(takeScript, [this.fleet.key(`mcp:rate:${key}`)], [now, perMinute, `${now}-${this.fleet.instanceId}-${this.sequence++}`]) === 1
      } catch {}
    }
    return this.takeLocal(key, perMinute, now)
  }

  private takeLocal(key: string, perMinute: number, now: number): boolean {
    let times = this.calls.get(key)
    if (!times) this.calls.set(key, times = [])
    while (times.length && times[0] <= now - windowMs) times.shift()
    if (times.length >= perMinute) return false
    times.push(now)
    return true
  }
}
