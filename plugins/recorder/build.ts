import type { Usage, UpstreamHttpRequest } from 'model-proxy'
import { maskSecret, bodySourceOf, clientBytesOf } from 'model-proxy/internal'
import { capBody, maskUrlKey, recordHeaders } from './capture.ts'
import type { AttemptFlight, Flight } from './flight.ts'
import type { FlightRecord, RecordedAttempt, RecordedBody, RecordSummary } from './types.ts'

export interface BuildContext {
  instance: string
  keyName(key: string): string | undefined
  cost(usage: Usage, model: string, upstreamModel?: string): number | undefined
}

/** On Node, the headers Node already parsed: cheaper than walking the web Headers built around them. */
const nodeHeaders = (request: Flight['request']) => (request.event.req as { runtime?: { node?: { req?: { headers: Record<string, string | string[] | undefined> } } } }).runtime?.node?.req?.headers

const isSse = (headers: Record<string, unknown>) => String(headers['content-type'] ?? '').includes('event-stream')

/** The body of an upstream request as it went out: the client's own bytes, the JSON sent, or a raw body. */
function sentBody(http: UpstreamHttpRequest, clientText: string | undefined, clientBody: object): string | undefined {
  if (http.jsonText && http.jsonText.of === http.json) return http.jsonText.of === clientBody && clientText !== undefined ? clientText : String(http.jsonText.text)
  // A body nobody parsed went as the client's bytes (core/http/lazy-json.ts): record those, unparsed.
  const clientBytes = http.json && clientBytesOf(http.json)
  if (clientBytes) return clientText ?? clientBytes.toString('utf8')
  if (http.json) return JSON.stringify(http.json)
  if (typeof http.body === 'string') return http.body
  if (Buffer.isBuffer(http.body)) return http.body.toString('utf8')
  return http.body ? '(a streamed body, not recorded)' : undefined
}

// Absent fields are left undefined rather than spread in: JSON leaves them out, and spreads cost per request.
const body = (text: string | undefined, cap: number): RecordedBody | undefined => text === undefined ? undefined : capBody(text, cap)

function attemptRecord(attempt: AttemptFlight, cap: number, clientText: string | undefined, clientBody: object): RecordedAttempt {
  const { http, reply } = attempt
  const record = attempt.data as RecordedAttempt
  record.request = { method: http.method, url: maskUrlKey(http.url), headers: recordHeaders(http.headers), body: body(sentBody(http, clientText, clientBody), cap) }
  if (reply) record.response = { status: reply.status, headers: recordHeaders(reply.headers), body: body(reply.text, cap), stream: attempt.upstreamTap?.result(isSse(reply.headers)) }
  return record
}

/**
 * A finished flight as its record, and the secrets it might hold (the credentials it used, the client's
 * key) for the store to mask with the config's own.
 */
export function buildRecord(flight: Flight, context: BuildContext): { record: FlightRecord; secrets: Array<string | undefined> } {
  const { request, cap } = flight
  const end = flight.end!
  const url = request.event.url
  // The client's bytes when the body was never built (recording does not parse it for the text).
  const clientText = request.clientBody ? request.clientBody.bytes.toString('utf8') : bodySourceOf(request.body)?.text
  const attempts = flight.attempts.map(attempt => attemptRecord(attempt, cap, clientText, request.clientBody?.parsed === false ? {} : request.body))
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
  const record: FlightRecord = {
    id: request.id,
    time: request.startedAt,
    durationMs: end.durationMs,
    status: end.status,
    error: end.error,
    model: request.model,
    servedModel: request.servedModel,
    keyName: key === undefined ? undefined : context.keyName(key),
    clientKey: key ? maskSecret(key) : undefined,
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
      request: { method: request.event.req.method, path, headers: recordHeaders(nodeHeaders(request) ?? request.event.req.headers), body: body(clientText ?? JSON.stringify(request.body), cap) },
      response: {
        status: end.status,
        headers: end.responseHeaders,
        body: body(answer, cap),
        stream: answer === undefined && end.stream && last?.clientTap ? last.clientTap.result(end.sse !== false) : undefined,
      },
    },
    routing,
    attempts,
  }
  return { record, secrets: [key, ...flight.attempts.flatMap(attempt => [attempt.credential.apiKey, attempt.credential.accessToken])] }
}

/** The list's row of a record. */
export function summaryOf(record: FlightRecord): RecordSummary {
  const { client: _client, routing: _routing, attempts: _attempts, ...summary } = record
  return summary
}
