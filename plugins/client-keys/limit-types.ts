import type { BudgetPeriod } from './schema.ts'

/** A key's limits as the counters see them (budget in integer nano-dollars). */
export interface KeyRules { rpm?: number; tpm?: number; budgetNano?: number; period: BudgetPeriod }

/** What a request is expected to use, reserved before it is sent. */
export interface Estimate { tokens: number; nano: number }

/** A reservation: settled with the real usage after the answer (or it lapses at `expires`). */
export interface Hold {
  id: string
  name: string
  /** The minute window it was taken in: its tokens count there. */
  window: number
  tokens: number
  nano: number
  /** Period ids (day, week, month, total) its cost is added to. */
  periods: string[]
  /** Taken in Redis (true) or in this instance's counters. */
  shared: boolean
  expires: number
}

export interface Refusal { reason: 'rpm' | 'tpm' | 'budget'; retryAfterMs?: number }

/** The counters of one key now, as the panel and the management API show them. */
export interface KeyUsageNow {
  window: number
  requests: number
  tokens: number
  heldTokens: number
  heldNano: number
  /** Nano-dollars spent per period id. */
  spend: Record<string, number>
}

/** A reservation lapses after this: a request that never settles (its process died) frees its share. */
export const holdTtlMs = 15 * 60_000
