import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import type { Fleet } from 'model-proxy/kit/fleet'
import { KeyLimits } from './limits.ts'
import { limitKeys } from './redis-scripts.ts'
import { minuteMs, periodOf, windowOf } from './windows.ts'

/**
 * Reconciliation after a Redis outage, against a real Redis (the shared one, under a key prefix of this
 * test's own): the store's "up" event and the retry timer may fire together, and a write whose reply is
 * lost is written again. Either way every settlement counts once.
 */
const prefix = `test-reconcile-${process.pid}-${Date.now()}:`
let client: Redis

/** A fleet on `client` whose Redis can be made to look away, slow, or to lose one reply. */
function testFleet() {
  const state = { down: false, delayMs: 0, loseReplies: 0, evals: 0, hold: false, held: [] as Array<() => Promise<unknown>> }
  const fleet: Fleet = {
    instanceId: 'test-instance',
    shared: true,
    health: () => ({ shared: true, up: !state.down, since: 0, outages: 0 }),
    settled: async () => {},
    onUp: () => () => {},
    key: name => prefix + name,
    publish: async () => {},
    subscribe: () => () => {},
    async eval(script, keys, args) {
      if (state.down) throw new Error('redis is away')
      // Sent to a paused Redis: the caller gives up waiting; the script runs when it resumes.
      if (state.hold) {
        state.held.push(() => client.eval(script, keys.length, ...keys, ...args))
        throw new Error('Command timed out')
      }
      state.evals++
      if (state.delayMs) await new Promise(resolve => setTimeout(resolve, state.delayMs))
      const answer = await client.eval(script, keys.length, ...keys, ...args)
      // Written, but the reply never arrives: the caller must assume nothing was.
      if (state.loseReplies > 0) {
        state.loseReplies--
        throw new Error('connection lost before the reply')
      }
      return answer
    },
    close: async () => {},
  }
  return { fleet, state }
}

beforeAll(() => { client = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: false, maxRetriesPerRequest: 1 }) })
afterAll(async () => {
  const keys = await client.keys(`${prefix}*`)
  if (keys.length) await client.del(...keys)
  client.disconnect()
})

async function counters(name: string, now: number) {
  const window = windowOf(now)
  // The keys as the scripts name them (hash-tagged for a Redis Cluster).
  const [requests, tokens, held, spendDay] = limitKeys(part => prefix + part, name, window, [periodOf('day', now).id])
  const get = async (key: string) => Number(await client.get(key) ?? 0)
  return { requests: await get(requests), tokens: await get(tokens), spendDay: await get(spendDay), held: await client.zcard(held!) }
}

describe('reconciliation after an outage', () => {
  it('the "up" event and the timer at once: one reconciliation, every settlement once', async () => {
    const { fleet, state } = testFleet()
    const limits = new KeyLimits(fleet, { down: () => {}, up: () => {} })
    const now = Date.now()
    // Not in the last second of a minute: the counters read below are this window's.
    if (now % minuteMs > minuteMs - 2000) await new Promise(resolve => setTimeout(resolve, 2500))
    state.down = true
    for (let i = 0; i < 10; i++) {
      const hold = await limits.reserve('overlap', { period: 'day' }, { tokens: 500, nano: 0 })
      if (!('id' in hold)) throw new Error('refused')
      await limits.settle(hold, { tokens: 120, nano: 3000 })
    }
    expect(limits.unreconciled).toBe(20)
    state.down = false
    // Slow writes: the second trigger comes while the first is half way.
    state.delayMs = 5
    await Promise.all([limits.reconcile(), limits.reconcile(), new Promise(resolve => setTimeout(resolve, 12)).then(() => limits.reconcile())])
    expect(limits.unreconciled).toBe(0)
    expect(state.evals).toBe(20)
    expect(await counters('overlap', Date.now())).toEqual({ requests: 10, tokens: 1200, spendDay: 30_000, held: 0 })
  })

  it('a write whose reply was lost is written again: the replay is a no-op', async () => {
    const { fleet, state } = testFleet()
    const limits = new KeyLimits(fleet, { down: () => {}, up: () => {} })
    state.down = true
    for (let i = 0; i < 4; i++) {
      const hold = await limits.reserve('replay', { period: 'day' }, { tokens: 500, nano: 0 })
      if (!('id' in hold)) throw new Error('refused')
      await limits.settle(hold, { tokens: 100, nano: 1000 })
    }
    state.down = false
    state.loseReplies = 1
    // The lost reply stops this pass (Redis looks away again); the next one writes the same item again.
    await limits.reconcile()
    expect(limits.unreconciled).toBe(8)
    await limits.reconcile()
    expect(limits.unreconciled).toBe(0)
    expect(state.evals).toBe(9)
    expect(await counters('replay', Date.now())).toEqual({ requests: 4, tokens: 400, spendDay: 4000, held: 0 })
  })

  it('a settlement written at once, then replayed, counts once too', async () => {
    const { fleet, state } = testFleet()
    const limits = new KeyLimits(fleet, { down: () => {}, up: () => {} })
    const hold = await limits.reserve('direct', { period: 'day' }, { tokens: 500, nano: 0 })
    if (!('id' in hold)) throw new Error('refused')
    // The settle's write lands but its reply is lost: kept to write back, and written again later.
    state.loseReplies = 1
    await limits.settle(hold, { tokens: 70, nano: 700 })
    expect(limits.unreconciled).toBe(1)
    await limits.reconcile()
    expect(limits.unreconciled).toBe(0)
    expect(await counters('direct', Date.now())).toEqual({ requests: 1, tokens: 70, spendDay: 700, held: 0 })
  })

  it('a reservation unanswered (Redis paused) runs before or after the write-back: the request counts once, nothing stays held', async () => {
    if (Date.now() % minuteMs > minuteMs - 2000) await new Promise(resolve => setTimeout(resolve, 2500))
    for (const runs of ['before', 'after'] as const) {
      const name = `unanswered-${runs}`
      const { fleet, state } = testFleet()
      const limits = new KeyLimits(fleet, { down: () => {}, up: () => {} })
      state.hold = true
      const hold = await limits.reserve(name, { rpm: 10, period: 'day' }, { tokens: 500, nano: 5000 })
      if (!('id' in hold)) throw new Error('refused')
      expect(hold.shared).toBe(false)
      await limits.settle(hold, { tokens: 90, nano: 900 })
      state.hold = false
      if (runs === 'before') for (const run of state.held) await run()
      await limits.reconcile()
      if (runs === 'after') for (const run of state.held) await run()
      expect(limits.unreconciled).toBe(0)
      expect(await counters(name, Date.now())).toEqual({ requests: 1, tokens: 90, spendDay: 900, held: 0 })
    }
  })

  it('refused here while its reservation was unanswered, admitted there: not counted', async () => {
    const { fleet, state } = testFleet()
    const limits = new KeyLimits(fleet, { down: () => {}, up: () => {} })
    // This instance's last view of the key: its minute spent (rpm 1).
    limits.local.seed('refused-here', { window: windowOf(Date.now()), requests: 1, tokens: 0, spend: {} })
    state.hold = true
    expect(await limits.reserve('refused-here', { rpm: 1, period: 'day' }, { tokens: 10, nano: 0 })).toMatchObject({ reason: 'rpm' })
    state.hold = false
    for (const run of state.held) await run()
    await limits.reconcile()
    expect(await counters('refused-here', Date.now())).toMatchObject({ requests: 0, held: 0 })
  })

  it('Redis back empty after two instances counted on their own: the spend read before, plus what each counted', async () => {
    const name = 'emptied'
    const one = testFleet()
    const two = testFleet()
    const limits = [new KeyLimits(one.fleet, { down: () => {}, up: () => {} }), new KeyLimits(two.fleet, { down: () => {}, up: () => {} })]
    const rules = { budgetNano: 1e9, period: 'total' as const }
    // Shared: 4 requests at 1000 nano-dollars, both instances read the total.
    for (const i of [0, 1, 0, 1]) {
      const hold = await limits[i]!.reserve(name, rules, { tokens: 10, nano: 10 })
      if (!('id' in hold)) throw new Error('refused')
      await limits[i]!.settle(hold, { tokens: 10, nano: 1000 })
    }
    one.state.down = two.state.down = true
    for (const [i, count] of [[0, 3], [1, 2]] as const) {
      for (let n = 0; n < count; n++) {
        const hold = await limits[i]!.reserve(name, rules, { tokens: 10, nano: 10 })
        if (!('id' in hold)) throw new Error('refused')
        await limits[i]!.settle(hold, { tokens: 10, nano: 1000 })
      }
    }
    // Every key of this name is gone (a restart without persistence).
    const keys = await client.keys(`${prefix}client-keys:{${name}}:*`)
    await client.del(...keys)
    one.state.down = two.state.down = false
    await Promise.all([limits[1]!.reconcile(), limits[0]!.reconcile()])
    const [, , , total] = limitKeys(part => prefix + part, name, windowOf(Date.now()), ['total'])
    expect(Number(await client.get(total!))).toBe(9000)
  })
})

