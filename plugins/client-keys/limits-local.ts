import { ChurnMap } from 'model-proxy/kit/guards'
import type { Estimate, Hold, KeyRules, KeyUsageNow, Refusal } from './limit-types.ts'
import { holdTtlMs } from './limit-types.ts'
import { minuteMs, periodOf, trackedPeriods, windowOf } from './windows.ts'

interface Counters { window: number; requests: number; tokens: number; spend: Map<string, number> }

/**
 * One instance's counters: the limits of a fleet of one (memory or fs storage), and what a fleet
 * member falls back on while Redis is away. Same rules as the Redis scripts: admit while the window's
 * requests, committed plus held tokens, and the period's spend plus held cost are under the limit.
 */
export class LocalLimits {
  private counters = new Map<string, Counters>()
  /** One per request in flight (a ChurnMap: core/data/churn-map.ts says why not a Map). */
  private holds = new ChurnMap<Hold>()
  private seq = 0

  private countersOf(name: string, now: number): Counters {
    const window = windowOf(now)
    let counters = this.counters.get(name)
    if (!counters) this.counters.set(name, counters = { window, requests: 0, tokens: 0, spend: new Map() })
    if (counters.window !== window) Object.assign(counters, { window, requests: 0, tokens: 0 })
    return counters
  }

  private held(name: string, window: number, now: number) {
    let tokens = 0
    let nano = 0
    for (const [id, hold] of this.holds.entries()) {
      if (hold.expires <= now) { this.holds.delete(id); continue }
      if (hold.name !== name) continue
      if (hold.window === window) tokens += hold.tokens
      nano += hold.nano
    }
    return { tokens, nano }
  }

  reserve(name: string, rules: KeyRules, estimate: Estimate, now: number): Hold | Refusal {
    const counters = this.countersOf(name, now)
    const held = this.held(name, counters.window, now)
    const windowLeft = counters.window + minuteMs - now
    if (rules.rpm !== undefined && counters.requests >= rules.rpm) return { reason: 'rpm', retryAfterMs: windowLeft }
    if (rules.tpm !== undefined && counters.tokens + held.tokens >= rules.tpm) return { reason: 'tpm', retryAfterMs: windowLeft }
    if (rules.budgetNano !== undefined) {
      const period = periodOf(rules.period, now)
      if ((counters.spend.get(period.id) ?? 0) + held.nano >= rules.budgetNano) return { reason: 'budget', retryAfterMs: period.end && period.end - now }
    }
    counters.requests++
    const hold: Hold = {
      id: `l${(this.seq++).toString(36)}`, name, window: counters.window, tokens: estimate.tokens, nano: estimate.nano,
      periods: trackedPeriods.map(period => periodOf(period, now).id), shared: false, expires: now + holdTtlMs,
    }
    this.holds.set(hold.id, hold)
    return hold
  }

  /** Add what was used: tokens to the window it started in (if still current), cost to its periods; frees the hold. */
  commit(name: string, window: number, periods: string[], used: { requests?: number; tokens: number; nano: number }, holdId?: string, now = Date.now()): void {
    if (holdId) this.holds.delete(holdId)
    const counters = this.countersOf(name, now)
    if (counters.window === window) {
      counters.tokens += used.tokens
      counters.requests += used.requests ?? 0
    }
    if (!used.nano) return
    const current = new Set(trackedPeriods.map(period => periodOf(period, now).id))
    for (const id of periods) counters.spend.set(id, (counters.spend.get(id) ?? 0) + used.nano)
    for (const id of counters.spend.keys()) if (!current.has(id)) counters.spend.delete(id)
  }

  release(holdId: string): void { this.holds.delete(holdId) }

  /** Take the fleet's view (read from Redis) as this instance's starting point should Redis go away. */
  seed(name: string, view: { window: number; requests: number; tokens: number; spend: Record<string, number> }): void {
    this.counters.set(name, { window: view.window, requests: view.requests, tokens: view.tokens, spend: new Map(Object.entries(view.spend)) })
  }

  usage(name: string, now: number): KeyUsageNow {
    const counters = this.countersOf(name, now)
    const held = this.held(name, counters.window, now)
    return { window: counters.window, requests: counters.requests, tokens: counters.tokens, heldTokens: held.tokens, heldNano: held.nano, spend: Object.fromEntries(counters.spend) }
  }

  /** Spend per key and period, to keep across restarts (fs storage). */
  spendState(): Record<string, Record<string, number>> {
    return Object.fromEntries([...this.counters].map(([name, c]) => [name, Object.fromEntries(c.spend)]))
  }

  loadSpend(state: Record<string, Record<string, number>>): void {
    const now = Date.now()
    for (const [name, spend] of Object.entries(state)) {
      const counters = this.countersOf(name, now)
      for (const [id, nano] of Object.entries(spend)) if (typeof nano === 'number') counters.spend.set(id, Math.max(counters.spend.get(id) ?? 0, nano))
    }
  }
}
