const windowMs = 60_000

/** Tool calls per key in the last minute (a sliding window of call times, per instance). */
export class CallRate {
  private readonly calls = new Map<string, number[]>()

  /** Counts a call if the key has room under `perMinute`; false when it has none. */
  take(key: string, perMinute: number, now = Date.now()): boolean {
    let times = this.calls.get(key)
    if (!times) this.calls.set(key, times = [])
    while (times.length && times[0] <= now - windowMs) times.shift()
    if (times.length >= perMinute) return false
    times.push(now)
    return true
  }
}
