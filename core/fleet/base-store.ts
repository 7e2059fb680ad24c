import { readFileSync } from 'node:fs'
import { writeFileAtomic } from '../config/atomic-write.ts'

/** The version a local file was last known to equal: the base of the next three-way merge. */
export interface SyncBase { stamp: string; hash: string; text: string | null }

/**
 * Sync bases of one folder's shared files, kept beside them in one hidden JSON file, so a restart still
 * knows which local edits were made since the last sync (and must be merged, not overwritten).
 */
export class FileBaseStore {
  private bases: Record<string, SyncBase> = {}

  constructor(private path: string) {
    try {
      this.bases = JSON.parse(readFileSync(path, 'utf8')) as Record<string, SyncBase>
    } catch {}
  }

  get(name: string): SyncBase | undefined {
    return Object.hasOwn(this.bases, name) ? this.bases[name] : undefined
  }

  async set(name: string, base: SyncBase | undefined): Promise<void> {
    const next = { ...this.bases }
    if (base) next[name] = base
    else delete next[name]
    this.bases = next
    await writeFileAtomic(this.path, JSON.stringify(next))
  }
}
