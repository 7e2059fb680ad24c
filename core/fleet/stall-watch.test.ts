import { afterAll, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import { stallMs, watchStalls } from './stall-watch.ts'

/** The shared test Redis, asked for PING only (nothing is written). */
const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 })
afterAll(() => { redis.disconnect() })

const busy = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until) { /* the process is busy: nothing else runs */ }
}

describe('the stall watch', () => {
  it('a PING left unanswered: stalled after stallMs', async () => {
    const hung = { status: 'ready', ping: () => new Promise<string>(() => {}) } as unknown as Redis
    let stalledAt = 0
    const started = performance.now()
    const watch = watchStalls(hung, { stalled: () => { stalledAt ||= performance.now() }, answered: () => {} })
    await expect.poll(() => stalledAt, { timeout: 3000, interval: 20 }).toBeGreaterThan(0)
    watch.stop()
    expect(stalledAt - started).toBeGreaterThanOrEqual(stallMs)
  })

  it('answered while this process was too busy to read it: not a stall', async () => {
    await redis.ping()
    let stalls = 0
    let answers = 0
    let blocked = false
    const client = {
      get status() { return redis.status },
      ping() {
        const reply = redis.ping()
        // Sent; then other work keeps the process busy past stallMs while the reply arrives and waits to be read.
        if (!blocked) {
          blocked = true
          setImmediate(() => busy(stallMs + 300))
        }
        return reply
      },
    } as unknown as Redis
    const watch = watchStalls(client, { stalled: () => { stalls++ }, answered: () => { answers++ } })
    await expect.poll(() => answers, { timeout: 3000, interval: 20 }).toBeGreaterThan(0)
    watch.stop()
    expect(stalls).toBe(0)
  })
})
