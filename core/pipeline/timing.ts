/**
 * What one proxied request spent where (performance.now() milliseconds): the proxy's own overhead is
 * everything except the time spent waiting, for the upstream (every attempt) or for a cooling credential.
 */
export interface RequestTiming {
  start: number
  waitedMs: number
}

export const startTiming = (): RequestTiming => ({ start: performance.now(), waitedMs: 0 })

/** The response header carrying the proxy's overhead on every proxied model answer. */
export const overheadHeader = 'x-proxy-overhead-ms'

/** Overhead so far, as the header value (two decimals; never negative). */
export function overheadValue(timing: RequestTiming, now = performance.now()): string {
  return Math.max(0, now - timing.start - timing.waitedMs).toFixed(2)
}

/** One upstream exchange's clock: its time counts as waiting, not as the proxy's overhead. */
export interface UpstreamClock {
  /** performance.now() when the request went out. */
  readonly sentAt: number
  /** Milliseconds from sending until the response headers (absent: no response yet). */
  firstByteMs?: number
  /** The exchange is over (body read, or stream primed): its milliseconds, counted as waited once. */
  stop(): number
}

export function startUpstreamClock(timing: RequestTiming): UpstreamClock {
  const sentAt = performance.now()
  let spent: number | undefined
  return {
    sentAt,
    stop() {
      if (spent === undefined) timing.waitedMs += spent = performance.now() - sentAt
      return spent
    },
  }
}
