import type { RecordSummary } from './types.ts'

/** What `GET /v0/management/requests` filters on. */
export interface RecordFilter {
  /** A client key's name, or its masked form. */
  key?: string
  /** The client's model or the one that served. */
  model?: string
  /** An exact status, a class, or whether it failed. */
  status?: number | '2xx' | '4xx' | '5xx' | 'ok' | 'error'
  /** Epoch ms, inclusive. */
  from?: number
  to?: number
  replayOf?: string
}

export type FilterResult = { filter: RecordFilter } | { error: string }

const statusWords = new Set(['2xx', '4xx', '5xx', 'ok', 'error'])

function time(value: string): number | undefined {
  const number = Number(value)
  if (value.trim() && Number.isFinite(number)) return number
  const parsed = Date.parse(value)
  return Number.isNaN(parsed) ? undefined : parsed
}

/** Query parameters -> a filter, or what is wrong with them. */
export function parseFilter(query: URLSearchParams): FilterResult {
  const filter: RecordFilter = {}
  const key = query.get('key')
  if (key) filter.key = key
  const model = query.get('model')
  if (model) filter.model = model
  const replayOf = query.get('replay-of')
  if (replayOf) filter.replayOf = replayOf
  const status = query.get('status')
  if (status) {
    if (statusWords.has(status)) filter.status = status as RecordFilter['status']
    else if (/^\d{3}$/.test(status)) filter.status = Number(status)
    else return { error: 'status must be a status code, 2xx, 4xx, 5xx, ok or error' }
  }
  for (const name of ['from', 'to'] as const) {
    const value = query.get(name)
    if (!value) continue
    const at = time(value)
    if (at === undefined) return { error: `${name} must be epoch milliseconds or an ISO date` }
    filter[name] = at
  }
  return { filter }
}

const failed = (row: RecordSummary) => row.status >= 400 || row.error !== undefined

/** Whether a row's time alone can match (checked before its summary is read). */
export const inTimeRange = (time: number, filter: RecordFilter) => (filter.from === undefined || time >= filter.from) && (filter.to === undefined || time <= filter.to)

export function matches(row: RecordSummary, filter: RecordFilter): boolean {
  if (!inTimeRange(row.time, filter)) return false
  if (filter.key !== undefined && row.keyName !== filter.key && row.clientKey !== filter.key) return false
  if (filter.model !== undefined && row.model !== filter.model && row.servedModel !== filter.model) return false
  if (filter.replayOf !== undefined && row.replayOf !== filter.replayOf) return false
  const status = filter.status
  if (status === undefined) return true
  if (typeof status === 'number') return row.status === status
  if (status === 'ok') return !failed(row)
  if (status === 'error') return failed(row)
  return Math.floor(row.status / 100) === Number(status[0])
}
