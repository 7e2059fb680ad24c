import type { Usage } from '../../core/canonical/types.ts'
import { maskSecret } from '../../core/credential.ts'
import { bodySourceOf } from '../../core/http/client-route.ts'
import type { UpstreamHttpRequest } from '../../core/http/upstream.ts'
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
function sentBody(http: UpstreamHttpRequest): string | undefined {
  if (http.jsonText && http.jsonText.of === http.json) return String(http.jsonText.text)
  if (http.json) return JSON.stringify(http.json)
  if (typeof http.body === 'string') return http.body
  if (Buffer.isBuffer(http.body)) return http.body.toString('utf8')
  return http.body ? '(a streamed body, not recorded)' : undefined
}

const body = (text: string | undefined, cap: number): { body?: RecordedBody } => text === undefined ? {} : { body: capBody(text, cap) }

function attemptRecord(attempt: AttemptFlight, cap: number): RecordedAttempt {
  const { http, reply } = attempt
  return {
    ...attempt.data,
    request: { method: http.method, url: maskUrlKey(http.url), headers: recordHeaders(http.headers), ...body(sentBody(http), cap) },
    ...(reply && {
      response: {
        status: reply.status,
        headers: recordHeaders(reply.headers),
        ...body(reply.text, cap),
        ...(attempt.upstreamTap && { stream: attempt.upstreamTap.result(isSse(reply.headers)) }),
      },
    }),
  }
}

/**
 * A finished flight as its record, and the secrets it might hold (the credentials it used, the client's
 * key) for the store to mask with the config's own.
 */
export function buildRecord(flight: Flight, context: BuildContext): { record: FlightRecord; secrets: Array<string | undefined> } {
  const { request, cap } = flight
  const end = flight.end!
  const url = request.event.url
  const attempts = flight.attempts.map(attempt => attemptRecord(attempt, cap))
  const last = flight.attempts.at(-1)
  const clientText = bodySourceOf(request.body)?.text ?? JSON.stringify(request.body)
  const answer = end.answerText ?? (end.answer && JSON.stringify(end.answer))
  const key = request.clientKey
  const keyName = key === undefined ? undefined : context.keyName(key)
  const candidate = end.candidate
  const cost = end.usage ? context.cost(end.usage, request.model, candidate?.upstreamModel) : undefined
  const summary: RecordSummary = {
    id: request.id,
    time: request.startedAt,
    durationMs: end.durationMs,
    status: end.status,
    ...(end.error && { error: end.error }),
    model: request.model,
    ...(request.servedModel && { servedModel: request.servedModel }),
    ...(keyName && { keyName }),
    ...(key && { clientKey: maskSecret(key) }),
    format: request.inbound,
    path: maskUrlKey(url.pathname + url.search),
    stream: request.stream,
    ...(candidate && { family: candidate.credential.family, credential: candidate.credential.id }),
    attemptCount: attempts.length,
    ...(end.usage && { usage: end.usage }),
    ...(cost !== undefined && { cost }),
    ...(request.dropped?.length && { dropped: request.dropped }),
    ...(flight.replayOf && { replayOf: flight.replayOf }),
    instance: context.instance,
  }
  const record: FlightRecord = {
    ...summary,
    client: {
      request: { method: request.event.req.method, path: summary.path, headers: recordHeaders(nodeHeaders(request) ?? request.event.req.headers), ...body(clientText, cap) },
      response: {
        status: end.status,
        headers: { ...end.responseHeaders },
        ...(answer !== undefined ? body(answer, cap) : end.stream && last?.clientTap ? { stream: last.clientTap.result(end.sse !== false) } : {}),
      },
    },
    ...(flight.routing && { routing: { ...flight.routing, ...(request.servedModel && { servedModel: request.servedModel }), ...(request.session && { session: request.session }) } }),
    attempts,
  }
  return { record, secrets: [key, ...flight.attempts.flatMap(attempt => [attempt.credential.apiKey, attempt.credential.accessToken])] }
}

/** The list's row of a record. */
export function summaryOf(record: FlightRecord): RecordSummary {
  const { client: _client, routing: _routing, attempts: _attempts, ...summary } = record
  return summary
}
