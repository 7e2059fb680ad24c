import type { ClientKeyEntry } from './schema.ts'
import type { KeyUsageNow } from './limit-types.ts'
import { storedHash } from './key-hash.ts'
import { expiresAt, refusalOf } from './directory.ts'
import { fromNano, periodOf, trackedPeriods } from './windows.ts'

/**
 * An entry as the management API shows it: never the key, only the start of its hash (enough to
 * tell two keys apart), its rules, state, and what it used now.
 */
export function keyView(entry: ClientKeyEntry, usage: KeyUsageNow, now = Date.now()) {
  const spend = Object.fromEntries(trackedPeriods.map(period => [period, fromNano(usage.spend[periodOf(period, now).id] ?? 0)]))
  const budget = entry.budget && (() => {
    const period = periodOf(entry.budget.period, now)
    const spent = spend[entry.budget.period]!
    return { usd: entry.budget.usd, period: entry.budget.period, spent_usd: spent, remaining_usd: Math.max(0, entry.budget.usd - spent), ...(period.end && { resets_at: new Date(period.end).toISOString() }) }
  })()
  const refusal = refusalOf(entry, now)
  return {
    name: entry.name,
    ...(entry.owner !== undefined && { owner: entry.owner }),
    key_hash: `${storedHash(entry.key).slice(0, 15)}…`,
    models: entry.models ?? [],
    ...(entry.rpm !== undefined && { rpm: entry.rpm }),
    ...(entry.tpm !== undefined && { tpm: entry.tpm }),
    ...(budget && { budget }),
    ...(entry.expires !== undefined && { expires: entry.expires, expires_at: new Date(expiresAt(entry.expires)!).toISOString() }),
    disabled: entry.disabled === true,
    state: refusal ? (entry.disabled ? 'disabled' : 'expired') : 'active',
    usage: {
      minute: { requests: usage.requests, tokens: usage.tokens, reserved_tokens: usage.heldTokens },
      spent_usd: spend,
      reserved_usd: fromNano(usage.heldNano),
    },
  }
}
