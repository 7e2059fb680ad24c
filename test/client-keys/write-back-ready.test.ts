import { describe, expect, it } from 'vitest'
import type { ProxyKernel } from 'model-proxy'
import type { Fleet } from 'model-proxy/kit/fleet'
import { readiness } from '../../core/runtime/readiness.ts'
import { KeyLimits } from '../../plugins/client-keys/limits.ts'
import type { Hold } from '../../plugins/client-keys/limit-types.ts'

/**
 * `/readyz` and the client-key write-back after a Redis outage, with the order of events driven by hand:
 * each script sent to the "Redis" of this test waits until the test lets it answer. An instance must not
 * say `ready` (nothing left to write back) while Redis still lacks something it counted on its own: the
 * spend every instance shows for a key is read from Redis (`settle-once.test.ts` once read it 3
 * settlements short right after both instances said ready).
 */
function gatedFleet() {
  const state = { up: false, waiting: [] as Array<() => void> }
  const fleet: Fleet = {
    instanceId: 'gated',
    shared: true,
    health: () => ({ shared: true, up: state.up, since: 0, outages: 0 }),
    settled: async () => {},
    onUp: () => () => {},
    key: name => name,
    publish: async () => {},
    subscribe: () => () => {},
    eval() {
      if (!state.up) return Promise.reject(new Error('redis is away'))
      // Answered as the commit script answers a first write: {1, requests, tokens, spend x4}.
      return new Promise(resolve => state.waiting.push(() => resolve([1, 0, 0, 0, 0, 0, 0])))
    },
    close: async () => {},
  }
  return { fleet, state }
}

const tick = () => new Promise(resolve => setImmediate(resolve))

function rig() {
  const { fleet, state } = gatedFleet()
  const limits = new KeyLimits(fleet, { down: () => {}, up: () => {} })
  const kernel = { services: { readinessDetails: new Map([['client-keys', () => limits.readinessDetail()]]) }, fleet } as unknown as ProxyKernel
  const ready = async () => await readiness(kernel).json() as { status: string; details?: Record<string, string> }
  /** Lets the scripts waiting now answer, one at a time; how many did. */
  const answer = async () => {
    let answered = 0
    for (let next = state.waiting.shift(); next; next = state.waiting.shift()) {
      next()
      answered++
      await tick()
    }
    return answered
  }
  return { state, limits, ready, answer }
}

const reserveLocally = async (limits: KeyLimits) => {
  const hold = await limits.reserve('team', { period: 'day' }, { tokens: 100, nano: 1000 })
  if (!('id' in hold)) throw new Error('refused')
  return hold as Hold
}

describe('/readyz while the client-key write-back runs', () => {
  it('Redis back: degraded, with the items left, until the last one is written', async () => {
    const { state, limits, ready } = rig()
    for (let i = 0; i < 3; i++) await limits.settle(await reserveLocally(limits), { tokens: 50, nano: 700 })
    expect(await ready()).toMatchObject({ status: 'degraded', details: { 'client-keys': expect.stringContaining('6 item(s)') } })
    state.up = true
    // The "up" event starts the write-back; the connection is ready, the items are not in Redis yet.
    const done = limits.reconcile()
    await tick()
    for (let left = 6; left > 0; left--) {
      expect(await ready(), `${left} left`).toMatchObject({ status: 'degraded', details: { 'client-keys': expect.stringContaining(`${left} item(s)`) } })
      state.waiting.shift()!()
      await tick()
    }
    await done
    expect(await ready()).toEqual({ status: 'ready', instance: 'gated' })
  })

  it('a stream admitted locally and settled after the write-back ended: written at once, and not ready until then', async () => {
    const { state, limits, ready, answer } = rig()
    const hold = await reserveLocally(limits)
    state.up = true
    const done = limits.reconcile()
    await tick()
    expect(await answer()).toBe(1)
    await done
    expect(await ready()).toMatchObject({ status: 'ready' })
    // Its stream ends now: its settlement is counted here, and sent to Redis without waiting for the retry timer.
    await limits.settle(hold, { tokens: 50, nano: 700 })
    await tick()
    expect(await ready()).toMatchObject({ status: 'degraded', details: { 'client-keys': expect.stringContaining('1 client-key item(s)') } })
    // The floor read back (restore-floors.ts), then the settlement.
    expect(await answer()).toBe(2)
    expect(limits.unreconciled).toBe(0)
    expect(await ready()).toMatchObject({ status: 'ready' })
  })
})
