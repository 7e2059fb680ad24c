import { randomBytes } from 'node:crypto'
import type { Fleet } from './fleet.ts'

/** One version of a shared document. `stamp` is `<epoch>:<version>`; a new epoch starts when the store lost it. */
export interface SharedVersion {
  stamp: string
  /** null: deleted. */
  text: string | null
  /** Instance that wrote it, and when (epoch ms). */
  origin: string
  at: number
}

// Compare-and-set: the new version is written only over the version the writer started from.
const commitScript = `
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return {0, current} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('SET', KEYS[2], ARGV[4])
redis.call('PUBLISH', KEYS[3], ARGV[5])
return {1, ARGV[3]}
`

/** The version number in a stamp: it only grows, even across a Redis that lost its data or went back to an older snapshot. */
export const versionOf = (stamp: string | undefined) => stamp ? Number(stamp.split(':')[1]) || 0 : 0

/** The stamp after `stamp` (a fresh epoch when there is none), past `atLeast` (the newest version the writer has seen). */
export function nextStamp(stamp: string | undefined, atLeast = 0): string {
  const epoch = stamp?.split(':')[0] || randomBytes(4).toString('hex')
  return `${epoch}:${Math.max(versionOf(stamp), atLeast) + 1}`
}

/**
 * A namespace of versioned documents in Redis (the config file, credential files): a hash of stamps
 * (one small read tells what changed), one key per document, and a channel that announces each
 * commit. Conflicts are settled by stamp: a commit made from an old version is refused.
 */
export class SharedDocs {
  constructor(private fleet: Fleet, readonly namespace: string) {}

  // The namespace is a hash tag: a commit touches the stamps, the document and the channel in one
  // script, and a Redis Cluster runs a script only on keys of one slot (else CROSSSLOT).
  get channel(): string { return `{${this.namespace}}:changed` }

  private stampsKey() { return this.fleet.key(`{${this.namespace}}:stamps`) }
  private docKey(name: string) { return this.fleet.key(`{${this.namespace}}:doc:${name}`) }

  /** Every document's current stamp. */
  async stamps(): Promise<Map<string, string>> {
    const all = await this.fleet.eval(`return redis.call('HGETALL', KEYS[1])`, [this.stampsKey()], []) as string[]
    const out = new Map<string, string>()
    for (let i = 0; i < all.length; i += 2) out.set(all[i]!, all[i + 1]!)
    return out
  }

  async read(name: string): Promise<SharedVersion | undefined> {
    const text = await this.fleet.eval(`return redis.call('GET', KEYS[1])`, [this.docKey(name)], []) as string | null
    return text ? JSON.parse(text) as SharedVersion : undefined
  }

  /**
   * Write `text` as the version after `expected` (undefined: the document must not exist yet), numbered
   * past `atLeast` (the writer's own newest version: numbers never go back).
   */
  async commit(name: string, expected: string | undefined, text: string | null, atLeast = 0): Promise<{ ok: true; version: SharedVersion } | { ok: false; current: string }> {
    const version: SharedVersion = { stamp: nextStamp(expected, atLeast), text, origin: this.fleet.instanceId, at: Date.now() }
    const result = await this.fleet.eval(commitScript, [this.stampsKey(), this.docKey(name), this.fleet.key(this.channel)],
      [name, expected ?? '', version.stamp, JSON.stringify(version), JSON.stringify({ name, stamp: version.stamp, origin: version.origin })]) as [number, string]
    return result[0] === 1 ? { ok: true, version } : { ok: false, current: result[1] }
  }

  /** Calls `listener` with the document name of each commit another instance announces. */
  watch(listener: (name: string, origin: string) => void): () => void {
    return this.fleet.subscribe(this.channel, (message) => {
      try {
        const { name, origin } = JSON.parse(message) as { name: string; origin: string }
        if (origin !== this.fleet.instanceId) listener(name, origin)
      } catch {}
    })
  }
}
