import type { BudgetPeriod } from './schema.ts'

export const minuteMs = 60_000
const dayMs = 86_400_000

/** Start of the fixed one-minute window `now` falls in (rpm and tpm are counted per window). */
export const windowOf = (now: number) => Math.floor(now / minuteMs) * minuteMs

/** The budget periods every request's cost is added to; a key's budget reads the one it names. */
export const trackedPeriods: BudgetPeriod[] = ['day', 'week', 'month', 'total']

export interface PeriodBounds {
  /** Names the period: `d2026-11-23`, `w2026-11-23` (its Monday), `m2026-11`, `total`. */
  id: string
  /** Epoch ms when the next period starts (undefined for `total`). */
  end?: number
}

/** The calendar period (UTC) `now` falls in. */
export function periodOf(period: BudgetPeriod, now: number): PeriodBounds {
  const date = new Date(now)
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate())
  switch (period) {
    case 'day': return { id: `d${new Date(day).toISOString().slice(0, 10)}`, end: day + dayMs }
    case 'week': {
      const monday = day - ((date.getUTCDay() + 6) % 7) * dayMs
      return { id: `w${new Date(monday).toISOString().slice(0, 10)}`, end: monday + 7 * dayMs }
    }
    case 'month': return { id: `m${new Date(day).toISOString().slice(0, 7)}`, end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) }
    case 'total': return { id: 'total' }
  }
}

/** How long a period's counter is worth keeping after it began (ms; 0 = always). */
export const periodKeepMs: Record<BudgetPeriod, number> = { day: 3 * dayMs, week: 15 * dayMs, month: 63 * dayMs, total: 0 }

/** The kind of period an id from `periodOf` names (`d…`, `w…`, `m…`, `total`). */
export const periodKindOf = (id: string): BudgetPeriod => id === 'total' ? 'total' : id.startsWith('d') ? 'day' : id.startsWith('w') ? 'week' : 'month'

/** USD <-> integer nano-dollars: counters add integers, so many small costs never drift. */
export const toNano = (usd: number) => Math.round(usd * 1e9)
export const fromNano = (nano: number) => nano / 1e9
