import { defineRequestState, type Credential, type AttemptResult, type Candidate, type PickContext, type ProxyRequest, type ResponseContext, type RouteContext, type UpstreamContext, type UpstreamReplyContext, type UpstreamHttpRequest } from 'model-proxy'
import { defineObjectState } from 'model-proxy/kit/http'
import { StreamTap } from './capture.ts'
import type { RecordedAttempt, RecordedRouting } from './types.ts'

/** Marks an in-process request as a replay (plugins/recorder/replay.ts): the id it replays. */
export const replayOfMark = defineObjectState<Request, string>('replay-of', { shared: true })
/** On a replay: the credential id it must use. */
export const replayCredentialMark = defineObjectState<Request, string>('replay-credential', { shared: true })

/** One attempt while it runs: what it will be recorded as, and live references read when it ends. */
export interface AttemptFlight {
  data: Omit<RecordedAttempt, 'request' | 'response'>
  credential: Credential
  http: UpstreamHttpRequest
  /** performance.now() when it was prepared. */
  start: number
  reply?: { status: number; headers: UpstreamReplyContext['headers']; text?: string }
  upstreamTap?: StreamTap
  clientTap?: StreamTap
}

/** One request while it runs (kept on its ProxyRequest with defineRequestState, like routing's state). */
export interface Flight {
  request: ProxyRequest
  /** A replay is always recorded, whatever the mode and sample. */
  replayOf?: string
  routing?: RecordedRouting
  attempts: AttemptFlight[]
  /** The end, as `after-response` saw it. */
  end?: ResponseContext
  /** Byte cap of each body and stream, in characters. */
  cap: number
}

export interface FlightSettings {
  /** Whether to follow a request seen for the first time (mode and sample). */
  follow(request: ProxyRequest): boolean
  cap(): number
  /** A finished flight to keep (or not: `errors` mode keeps only failures). */
  done(flight: Flight): void
  /** A listener failed: reported (rate-limited), the request goes on unrecorded at that step. */
  fault(error: unknown): void
}

const candidateView = (c: Candidate) => ({ credential: c.credential.id, family: c.credential.family, provider: c.credential.provider, upstreamModel: c.upstreamModel })

/**
 * The recorder's hook listeners. Every one is wrapped: some of these hooks are deciding ones, and a
 * recorder fault must never fail a request it only watches.
 */
export function flightListeners(settings: FlightSettings) {
  // false: seen and not followed (not sampled).
  const flights = defineRequestState<Flight | false>('recorder')
  const flightOf = (request: ProxyRequest): Flight | undefined => {
    const known = flights.get(request)
    if (known !== undefined) return known || undefined
    const replayOf = replayOfMark.get(request.event.req)
    const follow = replayOf !== undefined || settings.follow(request)
    const flight: Flight | false = follow ? { request, attempts: [], cap: settings.cap(), ...(replayOf !== undefined && { replayOf }) } : false
    flights.set(request, flight)
    // The record holds the client's body as it came: a stream answer must not let it go (ProxyRequest.keepBody).
    if (follow) request.keepBody = true
    return flight || undefined
  }
  const safe = <A extends unknown[]>(fn: (...args: A) => void) => (...args: A): void => {
    try { fn(...args) } catch (error) { settings.fault(error) }
  }
  const current = (request: ProxyRequest) => flightOf(request)?.attempts.at(-1)

  return {
    'route-resolve': safe((ctx: RouteContext) => {
      const flight = flightOf(ctx.request)
      if (!flight) return
      const forced = replayCredentialMark.get(ctx.request.event.req)
      if (forced !== undefined) ctx.candidates = ctx.candidates.filter(c => c.credential.id === forced)
      flight.routing = { model: ctx.request.servedModel ?? ctx.request.model, candidates: ctx.candidates.map(candidateView), ...(ctx.rule && { rule: ctx.rule }), ...(ctx.error && { error: ctx.error.message }) }
    }),
    'credential-pick': safe((ctx: PickContext) => {
      const routing = flightOf(ctx.request)?.routing
      if (!routing) return
      if (ctx.waitUntil !== undefined) (routing.waits ??= []).push({ at: Date.now(), until: ctx.waitUntil })
      if (ctx.error) routing.error = ctx.error.message
    }),
    'before-upstream': safe(({ request, candidate, http }: UpstreamContext) => {
      const flight = flightOf(request)
      if (!flight) return
      const { credential } = candidate
      flight.attempts.push({
        data: { number: flight.attempts.length, startedAt: Date.now() - request.startedAt, credential: credential.id, family: credential.family, provider: credential.provider, model: request.servedModel ?? request.model, upstreamModel: candidate.upstreamModel },
        credential, http, start: performance.now(),
      })
    }),
    'upstream-reply': safe((ctx: UpstreamReplyContext) => {
      const attempt = current(ctx.request)
      if (!attempt) return
      attempt.reply = { status: ctx.status, headers: ctx.headers, text: ctx.text }
      if (ctx.text !== undefined) return
      const { cap } = flightOf(ctx.request)!
      const upstream = attempt.upstreamTap = new StreamTap(attempt.start, cap)
      const client = attempt.clientTap = new StreamTap(attempt.start, cap)
      ctx.watch = (chunk, side) => (side === 'upstream' ? upstream : client).push(chunk)
    }),
    'attempt-result': (availability: () => ((candidate: Candidate) => true | number | false) | undefined) => safe((ctx: AttemptResult) => {
      const attempt = current(ctx.request)
      if (!attempt) return
      const data = attempt.data
      data.status = ctx.status
      data.action = ctx.action
      if (ctx.firstByteMs !== undefined) data.firstByteMs = round(ctx.firstByteMs)
      if (ctx.durationMs !== undefined) data.durationMs = round(ctx.durationMs)
      if (ctx.retryWith) data.retryWith = ctx.retryWith.upstreamModel
      if (ctx.bootstrap) data.bootstrap = true
      if (ctx.message) data.message = ctx.message
      if (ctx.retryAfter !== undefined) data.retryAfter = ctx.retryAfter
      const ready = availability()?.(ctx.candidate)
      if (typeof ready === 'number' && ready > Date.now()) data.cooldownUntil = ready
    }),
    'after-response': safe((ctx: ResponseContext) => {
      const flight = flightOf(ctx.request)
      if (!flight) return
      flight.end = ctx
      const last = flight.attempts.at(-1)
      if (last && ctx.upstreamMs !== undefined && last.data.durationMs === undefined) last.data.durationMs = round(ctx.upstreamMs)
      settings.done(flight)
    }),
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100
