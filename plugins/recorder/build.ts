import type { Usage, UpstreamHttpRequest } from 'model-proxy'
import { clientKeyId, credentialSecrets } from 'model-proxy/kit/access'
import { maskUrlKey, recordHeaders } from './capture.ts'
import { RecordBlobs } from './packed.ts'
import type { AttemptFlight, Flight } from './flight.ts'
import type { FlightRecord, Held, RecordedAttempt, RecordSummary, Stored, StoredRecord } from './types.ts'

export interface BuildContext {
  instance: string
  keyName(key: string): string | undefined
  cost(usage: Usage, model: string, upstreamModel?: string): number | undefined
}

/** On Node, the headers Node already parsed: cheaper than walking the web Headers built around them. */
const nodeHeaders = (request: Flight['request']) => (request.event.req as { runtime?: { node?: { req?: { headers: Record<string, string | string[] | undefined> } } } }).runtime?.node?.req?.headers

const isSse = (headers: Record<string, unknown>) => String(headers['content-type'] ?? '').includes('event-stream')

/**
 * The body of an upstream request as it went out: the bytes sent (the client's own Buffer when it went
 * untouched, so it is one blob of the record), or a raw body.
 */
function sentBody(http: UpstreamHttpRequest): Uint8Array | string | undefined {
  if (http.json) return http.json.bytes()
  if (typeof http.body === 'string' || Buffer.isBuffer(http.body)) return http.body
  return http.body ? '(a streamed body, not recorded)' : undefined
}

function attemptRecord(attempt: AttemptFlight, blobs: RecordBlobs): RecordedAttempt<Stored> {
  const { http, reply } = attempt
  const record = attempt.data as RecordedAttempt<Stored>
  record.request = { method: http.method, url: maskUrlKey(http.url), headers: recordHeaders(http.headers), body: blobs.body(sentBody(http)) }
  if (reply) record.response = { status: reply.status, headers: recordHeaders(reply.headers), body: blobs.body(reply.text), stream: attempt.upstreamTap && blobs.stream(attempt.upstreamTap.result(), isSse(reply.headers)) }
  return record
}

/** A flight as a record to store: the record with its bodies as blob references, and the blobs. */
export interface BuiltRecord {
  record: StoredRecord
  blobs: RecordBlobs
  /** What the record's own fields might hold (the client key, the credentials used), masked with the config's secrets. */
  secrets: Array<string | undefined>
  /** Searched for in the bodies too (packed.ts says why only this one). */
  clientKey?: string
}

/**
 * A finished flight as its record, and the secrets it might hold (the credentials it used, the client's
 * key) for the store to mask with the config's own.
 */
export function buildRecord(flight: Flight, context: BuildContext): BuiltRecord {
  const { request, cap } = flight
  const end = flight.end!
  const url = request.event.url
  const blobs = new RecordBlobs(cap)
  // The client's bytes as they came: kept by reference, never decoded on the request path.
  const clientBytes = request.clientBytes
  const attempts = flight.attempts.map(attempt => attemptRecord(attempt, blobs))
  const last = flight.attempts.at(-1)
  const answer = end.answerText ?? (end.answer && JSON.stringify(end.answer))
  const key = request.clientKey
  const candidate = end.candidate
  const path = maskUrlKey(url.pathname + url.search)
  const routing = flight.routing
  if (routing) {
    routing.servedModel = request.servedModel
    routing.session = request.session
  }
  const record: StoredRecord = {
    id: request.id,
    time: request.startedAt,
    durationMs: end.durationMs,
    status: end.status,
    error: end.error,
    model: request.model,
    servedModel: request.servedModel,
    keyName: key === undefined ? undefined : context.keyName(key),
    clientKey: key ? clientKeyId(key) : undefined,
    format: request.inbound,
    path,
    stream: request.stream,
    family: candidate?.credential.family,
    credential: candidate?.credential.id,
    attemptCount: attempts.length,
    usage: end.usage,
    cost: end.usage ? context.cost(end.usage, request.model, candidate?.upstreamModel) : undefined,
    dropped: request.dropped?.length ? request.dropped : undefined,
    replayOf: flight.replayOf,
    instance: context.instance,
    client: {
      request: { method: request.event.req.method, path, headers: recordHeaders(nodeHeaders(request) ?? request.event.req.headers), body: blobs.body(clientBytes ?? JSON.stringify(request.body)) },
      response: {
        status: end.status,
        headers: end.responseHeaders,
        body: blobs.body(answer),
        stream: answer === undefined && end.sse !== undefined && last?.clientTap ? blobs.stream(last.clientTap.result(), end.sse !== false) : undefined,
      },
    },
    routing,
    attempts,
  }
  return { record, blobs, secrets: [key, ...flight.attempts.flatMap(attempt => credentialSecrets(attempt.credential))], clientKey: key }
}

/** The list's row of a record. */
export function summaryOf(record: FlightRecord<Held<unknown, unknown>>): RecordSummary {
  const { client: _client, routing: _routing, attempts: _attempts, ...summary } = record
  return summary
}
