import type { Fleet } from 'model-proxy/kit/fleet'
import type { LocalLimits } from './limits-local.ts'
import { floorScript, limitKeys } from './redis-scripts.ts'
import { periodKeepMs, periodKindOf, windowOf } from './windows.ts'

/**
 * Redis is back, possibly empty (no persistence) or from an older snapshot: its counters are raised to
 * this instance's last view of them, which they cannot truly be below (a view is what Redis held, plus
 * this instance's own later settlements, which it wrote there). With its data kept, Redis is at or
 * above every view and nothing changes; without, a key's budget is not handed out a second time.
 */
export async function restoreFloors(fleet: Fleet, local: LocalLimits, now = Date.now()): Promise<number> {
  const window = windowOf(now)
  let raised = 0
  for (const view of local.views()) {
    const periods = Object.keys(view.spend)
    const current = view.window === window
    const keys = limitKeys(name => fleet.key(name), view.name, window, periods)
    await fleet.eval(floorScript, keys, [current ? view.requests : 0, current ? view.tokens : 0, ...periods.flatMap(id => [view.spend[id]!, periodKeepMs[periodKindOf(id)]])])
    raised++
  }
  return raised
}
