import type { Storage } from 'unstorage'
import type { UsageRecord } from './record.ts'

const prefix = 'usage:chunk:'
const hourOf = (time: number) => new Date(time).toISOString().slice(0, 13).replace(/[-T]/g, '')

/**
 * Usage records in storage, in chunks keyed `usage:chunk:<yyyymmddhh>:<instance>:<seq>`: every
 * instance writes only its own chunks (no read-modify-write races), memory holds only what waits for
 * the next flush, and whole hours age out past the retention.
 */
export class UsageStore {
  private pending: UsageRecord[] = []
  /** Chunks formed but not yet stored (the store was away): retried under the same key, so a retry never counts twice. */
  private unsent = new Map<string, UsageRecord[]>()
  private seq = 0
  private flushing?: Promise<void>
  private readonly instance = `${process.pid.toString(36)}${Date.now().toString(36)}`

  constructor(private storage: Storage, private onError: (error: unknown) => void = () => {}) {}

  add(record: UsageRecord): void {
    this.pending.push(record)
  }

  /** Records held in memory, waiting for the store. */
  get buffered(): number {
    let count = this.pending.length
    for (const records of this.unsent.values()) count += records.length
    return count
  }

  /** Write what is pending as new chunks (one per hour it spans), and retry chunks that failed before. */
  flush(): Promise<void> {
    // One flush at a time: a slow store never has two writers of one chunk.
    this.flushing ??= this.flushOnce().finally(() => { this.flushing = undefined })
    return this.flushing
  }

  private async flushOnce(): Promise<void> {
    const keys = new Map<string, string>()
    for (const record of this.pending.splice(0)) {
      const hour = hourOf(record.time)
      let key = keys.get(hour)
      if (!key) keys.set(hour, key = `${prefix}${hour}:${this.instance}:${this.seq++}`)
      const list = this.unsent.get(key)
      if (list) list.push(record)
      else this.unsent.set(key, [record])
    }
    let failure: unknown
    for (const [key, records] of [...this.unsent]) {
      try {
        await this.storage.setItem(key, records)
        this.unsent.delete(key)
      } catch (error) {
        failure = error
        break
      }
    }
    if (failure) this.onError(failure)
  }

  /** Every stored record (all instances) within `since`, plus this instance's unsent ones (only those while the store is away). */
  async *records(since = 0): AsyncGenerator<UsageRecord> {
    const minHour = hourOf(since)
    const keys = await this.storage.getKeys(prefix.slice(0, -1)).catch(() => [] as string[])
    const wanted = keys.filter(key => key.slice(prefix.length, prefix.length + 10) >= minHour && !this.unsent.has(key))
    for (let i = 0; i < wanted.length; i += 100) {
      const items = await this.storage.getItems(wanted.slice(i, i + 100)).catch(() => [])
      for (const { value } of items) {
        for (const record of (value as UsageRecord[] | null) ?? []) if (record.time >= since) yield record
      }
    }
    for (const records of this.unsent.values()) for (const record of records) if (record.time >= since) yield record
    for (const record of this.pending) if (record.time >= since) yield record
  }

  /** Drop whole hours older than `before`. */
  async prune(before: number): Promise<number> {
    const cutoff = hourOf(before)
    const old = (await this.storage.getKeys(prefix.slice(0, -1))).filter(key => key.slice(prefix.length, prefix.length + 10) < cutoff)
    await Promise.all(old.map(key => this.storage.removeItem(key)))
    return old.length
  }
}
