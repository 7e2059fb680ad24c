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
  private seq = 0
  private readonly instance = `${process.pid.toString(36)}${Date.now().toString(36)}`

  constructor(private storage: Storage, private onError: (error: unknown) => void = () => {}) {}

  add(record: UsageRecord): void {
    this.pending.push(record)
  }

  /** Write what is pending as new chunks (one per hour it spans). */
  async flush(): Promise<void> {
    if (!this.pending.length) return
    const batch = this.pending
    this.pending = []
    const byHour = new Map<string, UsageRecord[]>()
    for (const record of batch) {
      const hour = hourOf(record.time)
      const list = byHour.get(hour)
      if (list) list.push(record)
      else byHour.set(hour, [record])
    }
    await Promise.all([...byHour].map(([hour, records]) => this.storage.setItem(`${prefix}${hour}:${this.instance}:${this.seq++}`, records))).catch((error) => {
      this.pending.unshift(...batch)
      this.onError(error)
    })
  }

  /** Every stored record (all instances) within `since`, plus this instance's unflushed ones. */
  async *records(since = 0): AsyncGenerator<UsageRecord> {
    const minHour = hourOf(since)
    const keys = (await this.storage.getKeys(prefix.slice(0, -1))).filter(key => key.slice(prefix.length, prefix.length + 10) >= minHour)
    for (let i = 0; i < keys.length; i += 100) {
      for (const { value } of await this.storage.getItems(keys.slice(i, i + 100))) {
        for (const record of (value as UsageRecord[] | null) ?? []) if (record.time >= since) yield record
      }
    }
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
