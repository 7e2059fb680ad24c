import type { Storage } from 'unstorage'
import type { Flight } from './flight.ts'
import type { FlightRecord, RecordSummary } from './types.ts'
import type { RecorderConfig } from './schema.ts'
import { summaryOf } from './build.ts'
import { inTimeRange, matches, type RecordFilter } from './filter.ts'
import { entriesToTrim, entryOf, indexBase, isRecordId, parseEntry, recordKey } from './ring.ts'

export interface StoreOptions {
  settings: () => RecorderConfig
  /** A finished flight -> its record and the secrets it may hold. */
  build: (flight: Flight) => { record: FlightRecord; secrets: Array<string | undefined> }
  /** A record (or its summary) with every known secret masked. */
  mask: <T>(record: T, secrets: Array<string | undefined>) => T
  warn: (error: unknown) => void
}

/** Flights waiting for a write: past this many (storage away, a burst) the newest are dropped, counted in the warning. */
const maxPending = 500
const batch = 100
const trimEveryMs = 1000

/** A record ready to write. */
interface Pending { id: string; entry: string; text: string; summaryText: string; summary: RecordSummary }

export interface RecordPage { total: number; requests: RecordSummary[]; next?: string }

/**
 * The ring in the configured storage (memory, fs or redis: every instance on it sees every record):
 * `recorder:index:<time>-<id>` holds a record's summary (what lists and filters read), `recorder:record:<id>`
 * the whole record. Flights are turned into records and written off the request path, in batches; the
 * retention (count and age) trims the oldest at most once a second while writing, and before a list.
 */
export class RecordStore {
  private pending: Pending[] = []
  private dropped = 0
  private queue: Promise<void> = Promise.resolve()
  private trimmedAt = 0
  /** Summaries already read, by index entry (a record never changes once written). */
  private readonly summaries = new Map<string, RecordSummary>()

  constructor(private readonly storage: Storage, private readonly options: StoreOptions) {}

  /**
   * A finished flight, turned into text at once: held until the next write as strings, not as the
   * request's objects (which would then outlive the young generation and cost the collector more).
   */
  add(flight: Flight): void {
    if (this.pending.length >= maxPending) { this.dropped++; return }
    const built = this.options.build(flight)
    if (!isRecordId(built.record.id)) return
    const record = this.options.mask(built.record, built.secrets)
    const summary = summaryOf(record)
    this.pending.push({ id: record.id, entry: entryOf(record.time, record.id), text: JSON.stringify(record), summaryText: JSON.stringify(summary), summary })
  }

  get waiting(): number { return this.pending.length }

  /** Writes what is pending, then trims; one flush at a time. */
  flush(): Promise<void> {
    const run = this.queue.then(() => this.write())
    this.queue = run.catch(() => {})
    return run
  }

  private async write(): Promise<void> {
    const flights = this.pending
    if (!flights.length) return
    this.pending = []
    const writes = flights.map(async (item) => {
      await this.storage.setItem(recordKey(item.id), item.text)
      await this.storage.setItem(`${indexBase}:${item.entry}`, item.summaryText)
      this.summaries.set(item.entry, item.summary)
    })
    const failed = (await Promise.allSettled(writes)).filter(result => result.status === 'rejected')
    if (failed.length || this.dropped) {
      this.options.warn(new Error(`${failed.length + this.dropped} record(s) lost${failed.length ? `: ${(failed[0] as PromiseRejectedResult).reason?.message}` : ' (too many waiting)'}`))
      this.dropped = 0
    }
    // Listing the ring costs a storage listing: trimmed once a second while writing (a list trims first).
    if (Date.now() - this.trimmedAt >= trimEveryMs) await this.trim()
  }

  private async entries(): Promise<string[]> {
    const prefix = `${indexBase}:`
    return (await this.storage.getKeys(indexBase)).filter(key => key.startsWith(prefix)).map(key => key.slice(prefix.length)).sort()
  }

  /** Retention: records older than `max-age-hours`, then the oldest beyond `max-records`. Returns what is kept. */
  async trim(now = Date.now()): Promise<string[]> {
    this.trimmedAt = now
    const settings = this.options.settings()
    const entries = await this.entries()
    const drop = entriesToTrim(entries, settings['max-records'], now - settings['max-age-hours'] * 3_600_000)
    await Promise.all(drop.map(async (entry) => {
      this.summaries.delete(entry)
      await this.storage.removeItem(`${indexBase}:${entry}`)
      await this.storage.removeItem(recordKey(parseEntry(entry)!.id))
    }))
    return entries.slice(drop.length)
  }

  /** Newest first, `limit` a page, `cursor` = the `next` of the page before. */
  async list(filter: RecordFilter, limit: number, cursor?: string): Promise<RecordPage> {
    await this.flush()
    const entries = (await this.trim()).reverse()
    const known = new Set(entries)
    for (const entry of this.summaries.keys()) if (!known.has(entry)) this.summaries.delete(entry)
    const candidates = entries.filter(entry => (!cursor || entry < cursor) && inTimeRange(parseEntry(entry)?.time ?? 0, filter))
    const rows: Array<{ entry: string; summary: RecordSummary }> = []
    let next: string | undefined
    for (let i = 0; i < candidates.length && next === undefined; i += batch) {
      const slice = candidates.slice(i, i + batch)
      await this.load(slice)
      for (const entry of slice) {
        const summary = this.summaries.get(entry)
        if (!summary || !matches(summary, filter)) continue
        if (rows.length === limit) { next = rows.at(-1)!.entry; break }
        rows.push({ entry, summary })
      }
    }
    return { total: entries.length, requests: rows.map(row => row.summary), ...(next && { next }) }
  }

  private async load(entries: string[]): Promise<void> {
    const missing = entries.filter(entry => !this.summaries.has(entry))
    if (!missing.length) return
    const items = await this.storage.getItems(missing.map(entry => `${indexBase}:${entry}`))
    const prefix = `${indexBase}:`
    for (const { key, value } of items) if (value && typeof value === 'object') this.summaries.set(key.slice(key.indexOf(prefix) + prefix.length), value as RecordSummary)
  }

  async get(id: string): Promise<FlightRecord | undefined> {
    if (!isRecordId(id)) return undefined
    await this.flush()
    const record = await this.storage.getItem<FlightRecord>(recordKey(id))
    return record && typeof record === 'object' ? record : undefined
  }
}
