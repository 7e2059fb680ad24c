import { readFileSync } from 'node:fs'
import { writeFileAtomic } from '../config/atomic-write.ts'
import { ownValue } from '../data/unsafe-keys.ts'

/** How long after a version was replaced an edit may still have been made on it (editors that read just before). */
export const recentMs = 5000

/** The version a local file was last known to equal: the base of the next three-way merge. */
export interface SyncBase { stamp: string; hash: string; text: string | null }

/**
 * Sync bases of one folder's shared files, kept beside them in one hidden JSON file, so a restart still
 * knows which local edits were made since the last sync (and must be merged, not overwritten).
 */
export class FileBaseStore {
  private bases: Record<string, SyncBase> = {}
  /** Versions this process agreed on before the current one, newest first, with when each was replaced. */
  private history = new Map<string, Array<{ base: SyncBase; replacedAt: number }>>()

  constructor(private path: string) {
    try {
      this.bases = JSON.parse(readFileSync(path, 'utf8')) as Record<string, SyncBase>
    } catch {}
  }

  get(name: string): SyncBase | undefined {
    return ownValue(this.bases, name)
  }

  /** Versions replaced in the last `withinMs` (an editor may have read one of them just before it was replaced). */
  recent(name: string, withinMs = recentMs): SyncBase[] {
    const now = Date.now()
    return (this.history.get(name) ?? []).filter(entry => now - entry.replacedAt < withinMs).map(entry => entry.base)
  }

  async set(name: string, base: SyncBase | undefined): Promise<void> {
    const previous = this.get(name)
    if (previous && previous.stamp !== base?.stamp) this.history.set(name, [{ base: previous, replacedAt: Date.now() }, ...this.history.get(name) ?? []].slice(0, 5))
    const next = { ...this.bases }
    if (base) next[name] = base
    else delete next[name]
    this.bases = next
    await writeFileAtomic(this.path, JSON.stringify(next))
  }
}
