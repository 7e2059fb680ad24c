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
