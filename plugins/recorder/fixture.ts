import type { FlightRecord, RecordedBody } from './types.ts'

/** The codec suite's marker for the client key (test/clients/lab/fixtures.ts): the suite puts its own key there. */
export const keyMarker = '<client-key>'

/** One client request as the codec suite replays it (test/conformance/client-fixtures.test.ts). */
export interface FixtureRequest {
  /** Who sent it: a lab client, or `recorder`. */
  client: string
  version: string
  /** `plain`, `stream`, `tool-result`... or a record's id. */
  case: string
  method: string
  path: string
  headers: Record<string, string>
  body: unknown
}

/** A record as a fixture: the client's request, plus what was recorded. */
export interface RecordedFixture extends FixtureRequest {
  client: 'recorder'
  /** What happened when it was recorded: routing, both upstream bodies, the client's answer (not replayed). */
  recorded: {
    time: string
    model: string
    status: number
    error?: string
    family?: string
    dropped?: string[]
    upstream?: { url: string; request?: unknown; response?: unknown; status?: number }
    response?: unknown
  }
}

/** Headers that say nothing about the client (or carry its key): the suite sets its own. */
const dropped = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding', 'x-request-id', 'cookie', 'authorization', 'x-api-key', 'x-goog-api-key'])

/** A whole recorded body, parsed when it is JSON; a body cut at the size cap cannot be replayed. */
export function wholeBody(body: RecordedBody | undefined): { value: unknown } | { error: string } {
  if (!body) return { error: 'the record has no client body' }
  if (body.truncated) return { error: `the client body was cut at recorder.max-body-kb (${body.truncated} bytes left out): raise it to record this request whole` }
  try {
    return { value: JSON.parse(body.text) }
  } catch {
    return { error: 'the client body is not JSON' }
  }
}

const parsed = (body: RecordedBody | undefined) => {
  if (!body) return undefined
  try { return JSON.parse(body.text) } catch { return body.text }
}

/** The client request's path without a `key` query parameter (the suite authenticates with headers). */
export const pathWithoutKey = (path: string) => path.replace(/([?&])key=[^&#]*&?/, '$1').replace(/[?&]$/, '')

/** A record as a codec-suite fixture: the client's request, authenticated the way the client did, and what happened. */
export function toFixture(record: FlightRecord, version: string): RecordedFixture | { error: string } {
  const request = record.client.request
  const body = wholeBody(request.body)
  if ('error' in body) return body
  const sent = request.headers
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(sent)) if (!dropped.has(name.toLowerCase())) headers[name] = value
  // However the client sent its key, the suite's key goes the same way (every format reads a Bearer too).
  if (sent['x-api-key'] !== undefined) headers['x-api-key'] = keyMarker
  else if (sent['x-goog-api-key'] !== undefined) headers['x-goog-api-key'] = keyMarker
  else headers.authorization = `Bearer ${keyMarker}`
  const attempt = record.attempts.at(-1)
  return {
    client: 'recorder',
    version,
    case: record.id,
    method: request.method,
    path: pathWithoutKey(request.path),
    headers,
    body: body.value,
    recorded: {
      time: new Date(record.time).toISOString(),
      model: record.model,
      status: record.status,
      ...(record.error && { error: record.error }),
      ...(record.family && { family: record.family }),
      ...(record.dropped && { dropped: record.dropped }),
      ...(attempt && { upstream: { url: attempt.request.url, request: parsed(attempt.request.body), response: attempt.response?.stream ?? parsed(attempt.response?.body), status: attempt.status } }),
      response: record.client.response.stream ?? parsed(record.client.response.body),
    },
  }
}
