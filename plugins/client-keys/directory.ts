import type { ClientKeyDirectory } from 'model-proxy/kit/access'
import { matchModelPattern } from 'model-proxy/kit/models'
import type { ClientKeyEntry } from './schema.ts'
import { hashClientKey, storedHash } from './key-hash.ts'

/** End of the `expires` day: a bare date means the key works through that day (UTC). */
export function expiresAt(expires: string | undefined): number | undefined {
  if (!expires) return undefined
  const time = Date.parse(expires)
  return /^\d{4}-\d{2}-\d{2}$/.test(expires) ? time + 86_400_000 - 1 : time
}

/** Whether the key's `models` patterns let it use `model` (none listed: every model). */
export function keyAllowsModel(entry: ClientKeyEntry, model: string): boolean {
  if (!entry.models?.length) return true
  return entry.models.some(pattern => matchModelPattern(pattern, model))
}

/** Why an entry may not be used at `now`, or undefined. */
export function refusalOf(entry: ClientKeyEntry, now: number): string | undefined {
  if (entry.disabled) return 'this API key is disabled'
  const end = expiresAt(entry.expires)
  if (end !== undefined && now > end) return `this API key expired on ${new Date(end).toISOString().slice(0, 10)}`
  return undefined
}

/**
 * The `client-keys` entries, found by the sha256 of a presented key (a Map lookup: the digest is what
 * is compared, so neither content nor length of a stored key leaks through timing). Presented keys
 * that matched are remembered, at most a few thousand.
 */
export class KeyDirectory implements ClientKeyDirectory {
  private byHash = new Map<string, ClientKeyEntry>()
  private byName = new Map<string, ClientKeyEntry>()
  private seen = new Map<string, ClientKeyEntry>()
  /** Presented keys that are not named keys (`api-keys` ones): their sha256 is not taken per request. */
  private misses = new Set<string>()

  constructor(entries: ClientKeyEntry[]) {
    for (const entry of entries) {
      this.byHash.set(storedHash(entry.key), entry)
      this.byName.set(entry.name, entry)
    }
  }

  configured(): boolean { return this.byHash.size > 0 }

  entryOf(key: string | undefined): ClientKeyEntry | undefined {
    if (key === undefined || !this.byHash.size || this.misses.has(key)) return undefined
    const known = this.seen.get(key)
    if (known) return known
    const entry = this.byHash.get(hashClientKey(key))
    const cache = entry ? this.seen : this.misses
    if (cache.size > 5000) cache.clear()
    if (entry) this.seen.set(key, entry)
    else this.misses.add(key)
    return entry
  }

  named(name: string): ClientKeyEntry | undefined { return this.byName.get(name) }

  match(sent: string): string | undefined { return this.entryOf(sent) ? sent : undefined }

  refusal(key: string): string | undefined {
    const entry = this.entryOf(key)
    const why = entry && refusalOf(entry, Date.now())
    if (why) this.onRefusal?.(entry.name, entry.disabled ? 'disabled' : 'expired')
    return why
  }

  nameOf(key: string): string | undefined { return this.entryOf(key)?.name }

  allowsModel(key: string, model: string): boolean {
    const entry = this.entryOf(key)
    return !entry || keyAllowsModel(entry, model)
  }

  /** Told of each refused use (metrics). */
  onRefusal?: (name: string, reason: string) => void
}
