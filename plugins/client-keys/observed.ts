import { windowOf } from './windows.ts'

/** A key's counters as read from Redis: this window's requests and tokens, nano-dollars per period id. */
export interface CounterView { window: number; requests: number; tokens: number; spend: Record<string, number> }

/**
 * The highest counters this instance has read from Redis for each key: what Redis is raised back to
 * should it come back empty (restore-floors.ts). Only what Redis answered counts here, never what this
 * instance counted on its own while Redis was away (that is added to Redis as its own write-back, and
 * another instance's write-back must not be covered by it). Counters only grow within a window or a
 * period, so the higher of two reads is the later one: replies arriving out of order, or reads of an
 * emptied Redis before it is restored, never lower a view.
 */
export class ObservedCounters {
  private views = new Map<string, CounterView>()

  note(name: string, view: CounterView): void {
    const known = this.views.get(name)
    if (!known || view.window > known.window) {
      // A new window: its requests and tokens start over; spend keeps the higher of the periods both know.
      this.views.set(name, { ...view, spend: higher(view.spend, known?.spend) })
      return
    }
    known.spend = higher(known.spend, view.spend)
    if (view.window === known.window) {
      known.requests = Math.max(known.requests, view.requests)
      known.tokens = Math.max(known.tokens, view.tokens)
    }
  }

  /** Every key's view; requests and tokens only for the current window (an older one's are moot). */
  all(now = Date.now()): Array<CounterView & { name: string }> {
    const window = windowOf(now)
    return [...this.views].map(([name, view]) => ({ name, ...view, ...(view.window !== window && { window, requests: 0, tokens: 0 }) }))
  }
}

/** `base`'s periods, each at the higher of its spend and `other`'s. */
function higher(base: Record<string, number>, other: Record<string, number> = {}): Record<string, number> {
  const out = { ...base }
  for (const id in out) if ((other[id] ?? 0) > out[id]!) out[id] = other[id]!
  return out
}
