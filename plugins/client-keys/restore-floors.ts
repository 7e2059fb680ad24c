import type { Fleet } from 'model-proxy/kit/fleet'
import type { ObservedCounters } from './observed.ts'
import { floorScript, limitKeys } from './redis-scripts.ts'
import { periodKeepMs, periodKindOf } from './windows.ts'

/**
 * Redis is back, possibly empty (no persistence) or from an older snapshot: its counters are raised to
 * the highest this instance read there, which they cannot truly be below. With its data kept, Redis is
 * at or above every such read and nothing changes; without, a key's budget is not handed out a second
 * time. Done before this instance writes back what it counted while Redis was away, so that write-back
 * (and every other instance's) is added on top rather than covered by a raise.
 */
export async function restoreFloors(fleet: Fleet, observed: ObservedCounters, now = Date.now()): Promise<number> {
  let raised = 0
  for (const view of observed.all(now)) {
    const periods = Object.keys(view.spend)
    const keys = limitKeys(name => fleet.key(name), view.name, view.window, periods)
    await fleet.eval(floorScript, keys, [view.requests, view.tokens, ...periods.flatMap(id => [view.spend[id]!, periodKeepMs[periodKindOf(id)]])])
    raised++
  }
  return raised
}
