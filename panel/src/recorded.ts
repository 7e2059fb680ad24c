import type { FlightRecord, RecordedAttempt, RecordedMessage, RecordSummary, StreamEvent } from '../../plugins/recorder/api.ts'

export type { FlightRecord, RecordedAttempt, RecordSummary }

/** `GET /v0/management/requests`. */
export interface RequestsPage { mode: 'off' | 'errors' | 'sampled' | 'all'; total: number; requests: RecordSummary[]; next?: string }

/** What the Requests page filters on (the list API's own parameters). */
export interface RequestFilter { key: string; model: string; status: string; from: string; to: string }

export const noFilter: RequestFilter = { key: '', model: '', status: '', from: '', to: '' }

/** A `datetime-local` value (local time, no zone) -> epoch ms; blank or bad stays out of the query. */
const localTime = (value: string) => {
  const at = value ? new Date(value).getTime() : Number.NaN
  return Number.isNaN(at) ? undefined : at
}

/** The list query for a filter: only the fields set, times as epoch ms; `since` (a poll) narrows `from`. */
export function requestsQuery(filter: RequestFilter, options: { limit?: number; cursor?: string; since?: number } = {}): string {
  const query = new URLSearchParams()
  if (filter.key.trim()) query.set('key', filter.key.trim())
  if (filter.model.trim()) query.set('model', filter.model.trim())
  if (filter.status) query.set('status', filter.status)
  const from = localTime(filter.from)
  const since = options.since === undefined ? from : Math.max(from ?? 0, options.since)
  if (since !== undefined) query.set('from', String(since))
  const to = localTime(filter.to)
  if (to !== undefined) query.set('to', String(to))
  if (options.limit) query.set('limit', String(options.limit))
  if (options.cursor) query.set('cursor', options.cursor)
  const text = query.toString()
  return text ? `?${text}` : ''
}

/**
 * New rows on top of the rows shown: one row per id (a newer copy wins), newest first. A poll
 * (`olderToo` false) adds nothing older than the oldest row shown: those belong to a page not loaded yet.
 */
export function mergeRows(shown: RecordSummary[], fresh: RecordSummary[], olderToo = true): RecordSummary[] {
  const byId = new Map(shown.map(row => [row.id, row]))
  const floor = olderToo || !shown.length ? -Infinity : Math.min(...shown.map(row => row.time))
  for (const row of fresh) if (row.time >= floor) byId.set(row.id, row)
  return [...byId.values()].sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : -1))
}

/**
 * Records are kept by the time their request started but written when it ends, so a long stream shows
 * up after shorter, newer requests. A poll asks from this long before the newest row it holds (rows
 * it has already are merged, not repeated).
 */
export const pollLookbackMs = 5 * 60_000

/** The `from` of the next poll, or undefined before the first page. */
export const pollFrom = (rows: RecordSummary[]) => rows.length ? Math.max(...rows.map(row => row.time)) - pollLookbackMs : undefined

/** A JSON value with every object's keys in order, so two formats' bodies line up in a diff. */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys)
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(Object.keys(value).sort().map(key => [key, sortedKeys((value as Record<string, unknown>)[key])]))
}

/**
 * A body to read: JSON pretty-printed (two spaces; keys sorted when asked), anything else as it was;
 * with a note when it was cut. A stream is its events, one after another.
 */
export function bodyText(message: RecordedMessage | undefined, sortKeys = false): string {
  if (!message) return ''
  if (message.stream) return message.stream.events.map(event => event.data).join('\n\n')
  const body = message.body
  if (!body) return ''
  let text = body.text
  try {
    const parsed = JSON.parse(body.text)
    text = JSON.stringify(sortKeys ? sortedKeys(parsed) : parsed, null, 2)
  } catch {}
  return body.truncated ? `${text}\n… ${body.truncated} bytes cut at max-body-kb` : text
}

/** One event of the stream timeline: which hop it belongs to, and ms since the request started. */
export interface TimelineEvent { hop: 'upstream' | 'client'; at: number; data: string }

/** The attempt whose answer reached the client: the last one that got a response. */
export const answeringAttempt = (record: FlightRecord): RecordedAttempt | undefined =>
  [...record.attempts].reverse().find(attempt => attempt.response) ?? record.attempts.at(-1)

/**
 * The answering attempt's upstream stream and the client's stream on one clock: both count from that
 * attempt's start, so adding its `startedAt` puts them in ms since the request began. Ties keep the
 * upstream event first (it arrives before what is made of it).
 */
export function timeline(record: FlightRecord): TimelineEvent[] {
  const attempt = answeringAttempt(record)
  const start = attempt?.startedAt ?? 0
  const place = (hop: TimelineEvent['hop'], events: StreamEvent[] = []) => events.map(event => ({ hop, at: Math.round((start + event.at) * 100) / 100, data: event.data }))
  const events = [...place('upstream', attempt?.response?.stream?.events), ...place('client', record.client.response.stream?.events)]
  return events.sort((a, b) => a.at - b.at || (a.hop === b.hop ? 0 : a.hop === 'upstream' ? -1 : 1))
}

/** `200`, `4xx`... -> the badge class the panel uses for states. */
export const statusClass = (status: number, error?: string) => status === 0 || status >= 500 || error ? 'state-blocked' : status >= 400 ? 'state-cooldown' : 'state-ready'
