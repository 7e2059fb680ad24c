/** Lines of one kind let through per window; the rest are counted and reported with the next one. */
export const linesPerWindow = 10
export const windowMs = 60_000

interface Window { start: number; lines: number; suppressed: number }

/**
 * Rate-limited log lines (wrong client keys, failed management logins, bans): an attacker cannot flood
 * the log, and the operator still learns how many were left out.
 */
export function createLogLimiter(write: (message: string) => void, clock: () => number = Date.now) {
  const windows = new Map<string, Window>()
  return (kind: string, message: string): void => {
    const now = clock()
    let window = windows.get(kind)
    if (!window || now - window.start >= windowMs) {
      const left = window?.suppressed ?? 0
      window = { start: now, lines: 0, suppressed: 0 }
      windows.set(kind, window)
      if (left) message += ` (${left} more like this in the previous minute were not logged)`
    }
    if (window.lines >= linesPerWindow) {
      window.suppressed++
      return
    }
    window.lines++
    write(message)
  }
}
