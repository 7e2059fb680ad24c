import type { Storage } from 'unstorage'
import { ChurnMap } from 'model-proxy/kit/guards'
import { textSpellings } from 'model-proxy/kit/access'
import type { Flight } from './flight.ts'
import type { FlightRecord, RecordSummary } from './types.ts'
import type { RecorderConfig } from './schema.ts'
import { summaryOf, type BuiltRecord } from './build.ts'
import { unpackRecord } from './packed.ts'
import { holdsSecret, maskRecord } from './mask.ts'
import { rawStorage, type RawStorage } from './raw-storage.ts'
import { inTimeRange, matches, type RecordFilter } from './filter.ts'
import { entriesToTrim, entryOf, indexBase, isRecordId, parseEntry, recordKey } from './ring.ts'

export interface StoreOptions {
  settings: () => RecorderConfig
  /** A finished flight -> its record and the secrets it may hold. */
  build: (flight: Flight) => BuiltRecord
  /** Every secret known now, with the flight's own (`extra`): masked in a record's own fields when it is recorded. */
  secrets: (extra: Array<string | undefined>) => Array<string | undefined>
  /** A record read back with every secret known now masked, bodies included (packed.ts says why then). */
  unmask: (record: FlightRecord) => FlightRecord
  warn: (error: unknown) => void
}

/** Flights waiting for a write: past this many (storage away, a burst) the newest are dropped, counted in the warning. */
const maxPending = 500
const batch = 100
const trimEveryMs = 1000

/** A record ready to write. */
interface Pending { id: string; entry: string; packed: Uint8Array[]; summaryText: string; summary: RecordSummary }

export interface RecordPage { total: number; requests: RecordSummary[]; next?: string }

/**
 * The ring in the configured storage (memory, fs or redis: every instance on it sees every record):
 * `recorder:index:<time>-<id>` holds a record's summary (what lists and filters read), `recorder:record:<id>`
 * the whole record. Flights are turned into records and written off the request path, in batches; the
 * retention (count and age) trims the oldest at most once a second while writing, and before a list.
 */
export class RecordStore {
  private finished: Array<Flight | (() => BuiltRecord)> = []
  private pending: Pending[] = []
  private dropped = 0
  private queue: Promise<void> = Promise.resolve()
  private trimmedAt = 0
  /** Summaries already read, by index entry (a record never changes once written). */
  /** A ring's worth of summaries, replaced one by one (a ChurnMap: core/data/churn-map.ts says why not a Map). */
  private readonly summaries = new ChurnMap<RecordSummary>()
  private readonly raw: RawStorage

  constructor(private readonly storage: Storage, private readonly options: StoreOptions) {
    this.raw = rawStorage(storage)
  }

  /**
   * A finished flight: packed on the next turn of the event loop, not inside the `after-response` call
   * that ends the client's stream (packing there held back the stream's last write and its end, which
   * then went out as separate writes). Still young when packed, the request's objects die young.
   */
  add(flight: Flight | (() => BuiltRecord)): void {
    if (this.pending.length + this.finished.length >= maxPending) { this.dropped++; return }
    if (this.finished.push(flight) === 1) setImmediate(() => this.packFinished())
  }

  private packFinished(): void {
    const flights = this.finished
    this.finished = []
    for (const flight of flights) {
      try { this.pack(flight) } catch (error) { this.options.warn(error) }
    }
  }

  /**
   * A flight as one Buffer outside the heap (packed.ts), held until the next write. Only the client's
   * key is searched for in the bodies here: the proxy puts no credential in a body, and every known
   * secret is masked when the record is read.
   */
  private pack(flight: Flight | (() => BuiltRecord)): void {
    // A record built elsewhere (an MCP tool call, tool-call.ts) comes ready.
    const built = typeof flight === 'function' ? flight() : this.options.build(flight)
    if (!isRecordId(built.record.id)) return
    const secrets = this.options.secrets(built.secrets)
    let record = built.record
    let text = JSON.stringify(record)
    // Usually no secret is there: one search of the text, no walk and no copy of the record.
    if (holdsSecret(text, secrets)) text = JSON.stringify(record = maskRecord(record, secrets))
    const summary = summaryOf(record)
    // The client's key, and the credentials as an upstream may quote them in its answer (as text spells them).
    const inBodies = built.secrets.flatMap(secret => secret && secret.length >= 4 ? (secret === built.clientKey ? [secret] : textSpellings(secret)) : [])
    const packed = built.blobs.pack(text, inBodies.map(secret => Buffer.from(secret)))
    this.pending.push({ id: record.id, entry: entryOf(record.time, record.id), packed, summaryText: JSON.stringify(summary), summary })
  }

  get waiting(): number { return this.pending.length + this.finished.length }

  /** Writes what is pending, then trims; one flush at a time. */
  flush(): Promise<void> {
    this.packFinished()
    const run = this.queue.then(() => this.write())
    this.queue = run.catch(() => {})
    return run
  }

  private async write(): Promise<void> {
    const flights = this.pending
    if (!flights.length) return
    this.pending = []
    const writes = flights.map(async (item) => {
      await this.raw.set(recordKey(item.id), item.packed)
      await this.raw.setText(`${indexBase}:${item.entry}`, item.summaryText)
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
      await this.raw.remove(`${indexBase}:${entry}`)
      await this.raw.remove(recordKey(parseEntry(entry)!.id))
    }))
    return entries.slice(drop.length)
  }

  /** Newest first, `limit` a page, `cursor` = the `next` of the page before. */
  async list(filter: RecordFilter, limit: number, cursor?: string): Promise<RecordPage> {
    await this.flush()
    const entries = (await this.trim()).reverse()
    const known = new Set(entries)
    for (const [entry] of this.summaries.entries()) if (!known.has(entry)) this.summaries.delete(entry)
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
    const bytes = await this.raw.get(recordKey(id))
    const record = bytes && unpackRecord(bytes)
    return record && typeof record === 'object' ? this.options.unmask(record) : undefined
  }
}
