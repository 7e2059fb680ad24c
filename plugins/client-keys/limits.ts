import { randomBytes } from 'node:crypto'
import type { Fleet } from 'model-proxy/kit/fleet'
import { LocalLimits } from './limits-local.ts'
import { ObservedCounters } from './observed.ts'
import { restoreFloors } from './restore-floors.ts'
import { commitScript, limitKeys, readScript, reserveScript, settlementDoneKey } from './redis-scripts.ts'
import { holdTtlMs, type Estimate, type Hold, type KeyRules, type KeyUsageNow, type Refusal } from './limit-types.ts'
import { minuteMs, periodKeepMs, periodOf, trackedPeriods, windowOf } from './windows.ts'

/**
 * Counted on this instance while Redis was away: written there when it returns, once (its `id` says
 * which settlement it is). `unanswered`: an admission whose reservation (`member`) was sent to Redis
 * and not answered: it may have run there, or may still run.
 */
interface Pending { id: string; name: string; window: number; periods: string[]; requests: number; tokens: number; nano: number; member?: string; unanswered?: boolean; hold?: string }

/**
 * How long Redis remembers a written settlement id: one written at once only needs to outlive a retry of
 * the same write (a reply lost on its way back); one written back after an outage, any replay of it.
 */
const settledKeepMs = { now: holdTtlMs, reconciled: 2 * 86_400_000 }

const memberOf = (hold: Hold) => `${hold.id}|${hold.window}|${hold.tokens}|${hold.nano}`
/** The marker a reservation checks and its local write-back sets: whichever reaches Redis first counts the request. */
const admitId = (hold: Hold) => `admit:${hold.id}`

/**
 * Client-key limits for a fleet. With Redis: every reservation and settlement is one Lua script, so
 * the fleet shares exact counters. Without (memory, fs): this instance's counters. Redis away: the
 * instance goes on with its own counters, started from the fleet's last view, and adds what it
 * counted to Redis when it returns.
 */
export class KeyLimits {
  readonly local = new LocalLimits()
  /** The highest counters read from Redis per key: restored there should Redis come back without them. */
  readonly observed = new ObservedCounters()
  private pending: Pending[] = []
  private seq = 0
  /**
   * What this process's reservation and settlement ids start with: the instance id is stable across
   * restarts, and the sequence starts over, so without a per-run part a restarted instance would reuse
   * the ids whose settlement markers Redis still keeps, and its settlements would be dropped as replays.
   */
  private readonly run: string
  /** The reconciliation running now: the store's "up" event and the retry timer share it. */
  private reconciling: Promise<void> | undefined
  /** Epoch ms since limits are counted per instance because Redis is away; undefined while shared. */
  localSince?: number

  constructor(private fleet: Fleet, private events: { down(error: unknown): void; up(written: number): void }) {
    this.run = `${fleet.instanceId}.${randomBytes(6).toString('hex')}`
  }

  private keys(name: string, window: number, periods: string[]): string[] {
    return limitKeys(name => this.fleet.key(name), name, window, periods)
  }

  /** Whether Redis answers now; a fleet member that finds it away starts counting locally. */
  private shared(): boolean {
    if (!this.fleet.shared) return false
    const health = this.fleet.health()
    if (!health.up) this.down(new Error(health.reason ?? 'shared store unavailable'))
    return health.up
  }

  private down(error: unknown): void {
    if (this.localSince === undefined) {
      this.localSince = Date.now()
      this.events.down(error)
    }
  }

  async reserve(name: string, rules: KeyRules, estimate: Estimate, now = Date.now()): Promise<Hold | Refusal> {
    const window = windowOf(now)
    const periods = trackedPeriods.map(period => periodOf(period, now).id)
    let unanswered: Hold | undefined
    if (this.shared()) {
      const hold: Hold = { id: `${this.run}:${(this.seq++).toString(36)}`, name, window, tokens: estimate.tokens, nano: estimate.nano, periods, shared: true, expires: now + holdTtlMs }
      const budget = periodOf(rules.period, now)
      try {
        const keys = [...this.keys(name, window, periods), settlementDoneKey(name => this.fleet.key(name), name, admitId(hold))]
        const answer = await this.fleet.eval(reserveScript, keys, [
          now, window, rules.rpm ?? 0, rules.tpm ?? 0, rules.budgetNano ?? 0, rules.budgetNano === undefined ? 0 : trackedPeriods.indexOf(rules.period) + 1,
          memberOf(hold), hold.expires, window + minuteMs - now, budget.end ? budget.end - now : 0,
        ]) as [number, string, number, number, number, number, number, number, number, number, number]
        const [admitted, reason, retry, requests, tokens, , , ...spend] = answer
        // The fleet's view, kept should Redis go away (this instance then goes on from there).
        const view = { window, requests, tokens, spend: Object.fromEntries(periods.map((id, i) => [id, Number(spend[i])])) }
        this.local.seed(name, view)
        this.observed.note(name, view)
        if (admitted) return hold
        return { reason: reason as Refusal['reason'], ...(Number(retry) > 0 && { retryAfterMs: Number(retry) }) }
      } catch (error) {
        this.down(error)
        unanswered = hold
      }
    }
    const result = this.local.reserve(name, rules, estimate, now)
    const admitted = 'id' in result
    // Decided here: written back when Redis returns. A reservation sent and not answered is settled with
    // it (it may have run, or run later): the request then counts once, and no reservation stays held.
    const hold = admitted ? result.id : undefined
    if (unanswered) this.pending.push({ id: admitId(unanswered), name, window, periods, requests: admitted ? 1 : 0, tokens: 0, nano: 0, member: memberOf(unanswered), unanswered: true, hold })
    else if (admitted && this.fleet.shared) this.pending.push({ id: `${this.run}:admit:${result.id}`, name, window, periods, requests: 1, tokens: 0, nano: 0, hold })
    return result
  }

  /**
   * Take back a reservation made on this instance's counters for a request that is refused after all
   * (\`on-error: closed\`): it was never served, so it counts nowhere, not even as a request.
   */
  withdraw(hold: Hold): void {
    if (hold.shared) throw new Error('only a local reservation is withdrawn')
    this.local.commit(hold.name, hold.window, hold.periods, { requests: -1, tokens: 0, nano: 0 }, hold.id)
    const item = this.pending.find(pending => pending.hold === hold.id)
    // Its admission still waits to be written: it now adds no request (and, if its unanswered reservation
    // did run in Redis, takes that request back: see commitScript).
    if (item) item.requests = 0
    else if (this.fleet.shared) this.pending.push({ id: `${this.run}:withdraw:${hold.id}`, name: hold.name, window: hold.window, periods: hold.periods, requests: -1, tokens: 0, nano: 0 })
  }

  /** Replace a reservation by what the request used. */
  async settle(hold: Hold, used: { tokens: number; nano: number }): Promise<void> {
    const id = this.settlementId(hold)
    if (hold.shared && this.shared()) {
      try {
        await this.commit({ id, name: hold.name, window: hold.window, periods: hold.periods, requests: 0, tokens: used.tokens, nano: used.nano, member: memberOf(hold) }, settledKeepMs.now)
        return
      } catch (error) {
        this.down(error)
      }
    }
    this.local.commit(hold.name, hold.window, hold.periods, used, hold.id)
    if (!this.fleet.shared) return
    this.pending.push({ id, name: hold.name, window: hold.window, periods: hold.periods, requests: 0, ...used, ...(hold.shared && { member: memberOf(hold) }) })
    // A local hold settled after the write-back ended (a stream that outlived the outage): written now, not at the next retry.
    if (this.localSince === undefined && this.fleet.health().up) void this.reconcile()
  }

  /** One id per reservation's settlement, unique in the fleet (a local hold's id is this instance's own). */
  private settlementId(hold: Hold): string {
    return `settle:${hold.shared ? hold.id : `${this.run}:${hold.id}`}`
  }

  private async commit(item: Pending, keepMarker = settledKeepMs.reconciled): Promise<void> {
    const keep = item.periods.map((_, i) => periodKeepMs[trackedPeriods[i]!])
    const keys = [...this.keys(item.name, item.window, item.periods), settlementDoneKey(name => this.fleet.key(name), item.name, item.id)]
    const answer = await this.fleet.eval(commitScript, keys, [item.member ?? '', item.requests, item.tokens, item.nano, ...keep, keepMarker, item.unanswered ? '1' : ''])
    // The counters with this settlement in: what Redis is raised back to should it come back empty.
    if (Array.isArray(answer)) {
      const [, requests, tokens, ...spend] = answer as number[]
      this.observed.note(item.name, { window: item.window, requests: requests!, tokens: tokens!, spend: Object.fromEntries(item.periods.map((id, i) => [id, Number(spend[i])])) })
    }
  }

  /**
   * Redis is back: raise counters it may have lost to the highest this instance read there
   * (restore-floors.ts), add what this instance counted meanwhile, then share counters again. Single-flight:
   * a second call while one runs gets the running one; and each item is written under its settlement
   * id, so even a replay across processes counts it once.
   */
  reconcile(): Promise<void> {
    this.reconciling ??= this.reconcileOnce().finally(() => { this.reconciling = undefined })
    return this.reconciling
  }

  private async reconcileOnce(): Promise<void> {
    let written = 0
    try {
      await restoreFloors(this.fleet, this.observed)
    } catch (error) {
      this.down(error)
      return
    }
    while (this.pending.length) {
      try {
        await this.commit(this.pending[0]!)
      } catch (error) {
        this.down(error)
        return
      }
      this.pending.shift()
      written++
    }
    if (this.localSince !== undefined) {
      this.localSince = undefined
      this.events.up(written)
    }
  }

  /** The counters of one key now (the fleet's when Redis answers). */
  async usage(name: string, now = Date.now()): Promise<KeyUsageNow> {
    if (this.shared()) {
      const window = windowOf(now)
      const periods = trackedPeriods.map(period => periodOf(period, now).id)
      try {
        const [requests, tokens, heldTokens, heldNano, ...spend] = await this.fleet.eval(readScript, this.keys(name, window, periods), [now, window]) as number[]
        const view = { window, requests: requests!, tokens: tokens!, spend: Object.fromEntries(periods.map((id, i) => [id, Number(spend[i])])) }
        this.observed.note(name, view)
        return { ...view, heldTokens: heldTokens!, heldNano: heldNano! }
      } catch (error) {
        this.down(error)
      }
    }
    return this.local.usage(name, now)
  }

  /** Items counted locally and not yet written to Redis. */
  get unreconciled(): number { return this.pending.length }

  /** Redis lacks something this instance counted: it counts on its own, or has items left to write back. */
  get behind(): boolean { return this.localSince !== undefined || this.pending.length > 0 }

  /** What `/readyz` says while `behind`, also once Redis is back: the fleet's figures lack these items until written. */
  readinessDetail(): string | undefined {
    if (this.localSince !== undefined) return `client-key limits counted per instance since ${new Date(this.localSince).toISOString()} (${this.pending.length} item(s) to write back); reconciled when the shared store answers`
    if (this.pending.length) return `${this.pending.length} client-key item(s) counted on this instance left to write back to the shared store`
    return undefined
  }
}
