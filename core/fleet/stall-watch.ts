import type { Cluster, Redis } from 'ioredis'

/** How often the connection is asked for a PING while it is open. */
export const heartbeatMs = 500
/**
 * How long a PING may go unanswered before Redis counts as away. A paused server (SIGSTOP, a frozen VM,
 * a partition that drops packets) keeps its connections open and sends no error: without this the
 * fleet stays "up" and every command waits out the 2 s command timeout.
 */
export const stallMs = 1000

export interface StallWatch { stop(): void }

/**
 * PINGs an open connection; `stalled` once one goes unanswered for `stallMs`, `answered` on each reply
 * (the caller ends its stall there). Only one PING is in flight: a hung server is not sent a pile of them.
 */
export function watchStalls(client: Redis | Cluster, events: { stalled(): void; answered(): void }): StallWatch {
  let inFlight = false
  let stallTimer: NodeJS.Timeout | undefined
  // Decided after this turn's I/O: a process that was busy past `stallMs` may have the answer waiting unread.
  const checkStall = () => setImmediate(() => { if (inFlight) events.stalled() })
  const beat = setInterval(() => {
    if (inFlight || client.status !== 'ready') return
    inFlight = true
    stallTimer = setTimeout(checkStall, stallMs)
    stallTimer.unref()
    client.ping().then(events.answered, () => {}).finally(() => {
      inFlight = false
      clearTimeout(stallTimer)
    })
  }, heartbeatMs)
  beat.unref()
  return {
    stop() {
      clearInterval(beat)
      clearTimeout(stallTimer)
    },
  }
}
