import type { ProxyKernel } from '../kernel.ts'
import type { AttemptResult, Candidate, PickContext, ProxyRequest, ResponseContext } from '../hooks.ts'
import type { ProxyErrorInfo } from '../canonical/codec.ts'
import { ProxyError } from '../http/errors.ts'
import { sendUpstream, type UpstreamHttpResponse } from '../http/upstream.ts'
import { sendUpstreamBuffered, UpstreamExchangeError, type BufferedUpstreamResponse } from '../http/upstream-buffered.ts'
import { answerResponse, sseHeaders } from '../http/respond.ts'
import { scrubSecrets } from '../credential.ts'
import { buildUpstreamBody } from './upstream-body.ts'
import { translateResponse, type ClientEncoding } from './non-stream.ts'
import { createStreamTransform, pipeStream, primeStream } from './stream.ts'
import { endableAnswer, openAnswersOf } from './open-answers.ts'
import { errorResponse } from './error-response.ts'
import { classifyUpstreamStatus, retryAfterSeconds } from './upstream-status.ts'
import { sleep } from './sleep.ts'
import { withNonStreamKeepalive } from './nonstream-keepalive.ts'
import { candidateKey } from '../model-index.ts'
import { overheadHeader, overheadValue, startTiming } from './timing.ts'
import { clientSignal, type ClientSignal } from '../http/client-abort.ts'
import { bodySourceOf } from '../http/client-route.ts'
import { clientBytesUsable } from './client-bytes.ts'
import { describeConnectFailure } from '../http/connect-error.ts'

/** Options an endpoint passes about how the client wants its answer framed. */
export interface RunOptions {
  /** generateContent clients without `alt=sse` get a JSON-array stream. */
  sse?: boolean
  /** Encode the answer with this instead of the inbound format's codec (always translates). */
  client?: ClientEncoding
}

/** Names what a translated request lost on its way upstream, comma-separated in the client's field names. */
export const droppedHeader = 'x-proxy-dropped'

/** Hard stop for a misbehaving routing plugin: never loop forever. */
const maxAttempts = 64

type Failure = ProxyErrorInfo & { retryAfter?: number }

/**
 * The executor loop: resolve candidates, then per attempt pick a credential, shape the upstream request,
 * send it, and let `attempt-result` hooks decide whether to try again — only ever before the first
 * byte reaches the client.
 */
export function runPipeline(kernel: ProxyKernel, request: ProxyRequest, options: RunOptions = {}): Promise<Response> {
  const interval = kernel.config['nonstream-keepalive-interval']
  const run = runAttempts(kernel, request, options)
  // A shutdown whose drain window ran out answers a request still waiting for its upstream.
  const answer = endableAnswer(kernel, run, (message, status) => errorResponse(kernel, request.inbound, { status, message, type: 'server_error', code: 'shutting_down' }))
  return !request.stream && interval > 0 ? withNonStreamKeepalive(answer, interval) : answer
}

async function runAttempts(kernel: ProxyKernel, request: ProxyRequest, options: RunOptions): Promise<Response> {
  const { hooks } = kernel
  const timing = request.timing ??= startTiming()
  const route = { request, candidates: [] as Candidate[] }
  await hooks.callHook('route-resolve', route)
  if (!route.candidates.length) {
    return finishWithError(kernel, request, undefined, new ProxyError(404, `model ${JSON.stringify(request.model)} is not served by any configured provider`, 'invalid_request_error', 'model_not_found').info)
  }

  const tried = new Set<string>()
  // A client that leaves, stream or not, takes its upstream call with it, so a long non-stream
  // generation does not keep spending the credential's quota.
  const signal = clientSignal(request.event)
  let lastError: Failure | undefined
  let lastCandidate: Candidate | undefined
  let next: Candidate | undefined

  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    let candidate = next
    next = undefined
    if (!candidate) {
      const pick: PickContext = { request, candidates: route.candidates, tried }
      await hooks.callHook('credential-pick', pick)
      if (!pick.pick && pick.waitUntil !== undefined && !signal.aborted) {
        const waitStart = performance.now()
        await sleep(pick.waitUntil - Date.now(), signal)
        timing.waitedMs += performance.now() - waitStart
        attempt--
        continue
      }
      if (!pick.pick) {
        lastError = pick.error ?? lastError
        break
      }
      candidate = pick.pick
    }
    lastCandidate = candidate
    tried.add(candidateKey(candidate))

    const outcome = await attemptOnce(kernel, request, candidate, signal, options, attempt)
    if (outcome instanceof Response) return outcome
    if (signal.aborted) return new Response(null, { status: 499 })
    lastError = outcome.failure
    if (outcome.result.action !== 'retry') return finishWithError(kernel, request, candidate, withRetryAfter(kernel, outcome.failure, route.candidates))
    next = outcome.result.retryWith
  }

  return finishWithError(kernel, request, lastCandidate, withRetryAfter(kernel, lastError ?? { status: 503, message: `no credential is available for model ${JSON.stringify(request.model)}`, type: 'server_error', code: 'no_credential_available' }, route.candidates))
}

/**
 * A 429 always says when to come back: the upstream's own Retry-After, else when the first of the
 * model's credentials leaves its cooldown, else one second.
 */
function withRetryAfter(kernel: ProxyKernel, failure: Failure, candidates: Candidate[]): Failure {
  if (failure.status !== 429 || failure.retryAfter !== undefined) return failure
  const now = Date.now()
  let earliest: number | undefined
  for (const candidate of candidates) {
    const ready = kernel.services.availability?.(candidate)
    if (typeof ready === 'number' && ready > now && (earliest === undefined || ready < earliest)) earliest = ready
  }
  return { ...failure, retryAfter: earliest === undefined ? 1 : Math.ceil((earliest - now) / 1000) }
}

/** One upstream attempt: a client Response on success, or the failure and what the hooks decided. */
async function attemptOnce(kernel: ProxyKernel, request: ProxyRequest, candidate: Candidate, signal: ClientSignal, options: RunOptions, attempt: number): Promise<Response | { failure: Failure; result: AttemptResult }> {
  const { hooks } = kernel
  const provider = kernel.providers.get(candidate.credential.family)
  if (!provider) throw new ProxyError(500, `provider family ${candidate.credential.family} is not installed`, 'server_error')
  const body = buildUpstreamBody(kernel, request, provider.format, candidate.upstreamModel)
  const http = provider.buildRequest({ credential: candidate.credential, model: candidate.upstreamModel, body, stream: request.stream, endpoint: request.endpoint, clientHeaders: request.event.req.headers })
  // The client's own bytes go upstream unless someone changes the body (a hook assigns a new `http.json`).
  if (body === request.body && http.json === body) {
    const source = bodySourceOf(body)
    if (source && clientBytesUsable(source.text, request.inbound)) http.jsonText = { of: body, text: source.bytes }
  }
  // Rule 13: the entry's own proxy-url wins; '' there means direct; otherwise the global one.
  http.proxyUrl ??= kernel.config['proxy-url'] || undefined
  await hooks.callHook('before-upstream', { request, candidate, http })

  // Time spent waiting for this upstream is not the proxy's overhead (timing.ts).
  const timing = request.timing ??= startTiming()
  const sentAt = performance.now()
  let firstByteMs: number | undefined
  const upstreamDone = () => {
    const ms = performance.now() - sentAt
    timing.waitedMs += ms
    return ms
  }
  const fail = async (failure: Failure, status: number, bootstrap = false, detail?: string): Promise<{ failure: Failure; result: AttemptResult }> => {
    // A 200 stream that broke before its first event failed like a 502 (the next credential may answer);
    // streaming.bootstrap-retries allows that many tries more for this case.
    const allowed = kernel.config['request-retry'] + (bootstrap ? kernel.config.streaming['bootstrap-retries'] : 0)
    const retry = classifyUpstreamStatus(status) === 'retry' && attempt < allowed
    const result: AttemptResult = { request, candidate, status, attempt, bootstrap, retryAfter: failure.retryAfter, message: failure.message, detail, action: retry ? 'retry' : 'fail', firstByteMs, durationMs: upstreamDone() }
    await hooks.callHook('attempt-result', result)
    return { failure, result }
  }

  const limits = kernel.config.timeouts
  const timeouts = { connectMs: limits['connect-seconds'] * 1000, firstByteMs: limits['first-byte-seconds'] * 1000, idleMs: limits['stream-idle-seconds'] * 1000 }
  // Streams stay streams; a non-stream answer is read whole by a lighter undici handler.
  let upstream: UpstreamHttpResponse | BufferedUpstreamResponse
  try {
    upstream = request.stream ? await sendUpstream(http, signal, timeouts) : await sendUpstreamBuffered(http, signal, timeouts)
  } catch (error) {
    const stage = error instanceof UpstreamExchangeError ? error.stage : 'connect'
    if (stage === 'body') return fail({ status: 502, message: `upstream body failed: ${(error as Error).message}`, type: 'server_error' }, 502)
    // The client learns which hop failed and why, never an internal address; the log gets the error as it came.
    const { message, detail } = describeConnectFailure(error as Error, http.proxyUrl)
    return fail({ status: 502, message, type: 'server_error' }, 0, false, detail)
  }
  firstByteMs = ('headersAt' in upstream ? upstream.headersAt : performance.now()) - sentAt
  if (upstream.status >= 400) {
    const text = 'text' in upstream ? upstream.text : await upstream.body.text().catch(() => '')
    const info = decodeUpstreamError(kernel, provider.format, upstream.status, scrubSecrets(text, candidate.credential))
    return fail({ ...info, retryAfter: retryAfterSeconds(upstream.headers['retry-after']) }, upstream.status)
  }

  // What the translation could not carry is said in the answer (docs/clients.md).
  const responseHeaders: Record<string, string> = request.dropped?.length ? { [droppedHeader]: request.dropped.join(',') } : {}
  const ctx: ResponseContext = { request, candidate, status: upstream.status, durationMs: 0, upstreamHeaders: upstream.headers, responseHeaders }
  if ('body' in upstream) {
    // Read up to the first whole event before answering: a stream that dies (or sends junk) before it can still fail over.
    const transform = createStreamTransform(kernel, request, provider.format, candidate.upstreamModel, options.sse ?? true, options.client, provider.passthrough !== false)
    const primed = await primeStream(upstream.body, transform)
    if ('error' in primed) return fail({ status: 502, message: `upstream stream failed before its first byte: ${primed.error}`, type: 'server_error' }, 502, true)
    upstreamDone()
    await hooks.callHook('attempt-result', { request, candidate, status: upstream.status, attempt, action: 'done', firstByteMs })
    ctx.sse = options.sse !== false
    ctx.stream = pipeStream(upstream.body, primed, transform, (outcome) => {
      ctx.usage = outcome.usage
      ctx.error = outcome.error
      ctx.durationMs = Date.now() - request.startedAt
      ctx.upstreamMs = performance.now() - sentAt
      void hooks.callHook('after-response', ctx)
    }, openAnswersOf(kernel))
    await hooks.callHook('before-response', ctx)
    const contentType = ctx.sse ? sseHeaders : { 'content-type': 'application/json' }
    ctx.responseHeaders[overheadHeader] = overheadValue(timing)
    return answerResponse(request.event, ctx.stream, { ...ctx.responseHeaders, ...contentType })
  }
  const { text } = upstream
  // A 200 that is not JSON (a gateway's HTML page) is an upstream failure like a 502: the next credential may answer.
  if (!looksLikeJsonObject(text)) return fail({ status: 502, message: 'upstream returned a body that is not JSON', type: 'server_error', code: 'bad_upstream_response' }, 502)
  ctx.upstreamMs = upstreamDone()
  await hooks.callHook('attempt-result', { request, candidate, status: upstream.status, attempt, action: 'done', firstByteMs })
  ctx.durationMs = Date.now() - request.startedAt
  // Same format, same model name, nobody counting tokens: the upstream's bytes are the answer.
  if (provider.format === request.inbound && !options.client && provider.passthrough !== false && candidate.upstreamModel === request.model && !kernel.config['usage-statistics-enabled']) {
    await hooks.callHook('before-response', ctx)
    await hooks.callHook('after-response', ctx)
    ctx.responseHeaders[overheadHeader] = overheadValue(timing)
    return answerResponse(request.event, text, { ...ctx.responseHeaders, 'content-type': 'application/json' })
  }
  const translated = translateResponse(kernel, request, provider.format, text, options.client, provider.passthrough !== false)
  ctx.usage = translated.usage
  await hooks.callHook('before-response', ctx)
  await hooks.callHook('after-response', ctx)
  ctx.responseHeaders[overheadHeader] = overheadValue(timing)
  return answerResponse(request.event, JSON.stringify(translated.body), { ...ctx.responseHeaders, 'content-type': 'application/json' })
}

/** Upstream error body (its own format) -> what the client sees. */
function decodeUpstreamError(kernel: ProxyKernel, format: ProxyRequest['inbound'], status: number, text: string): ProxyErrorInfo {
  let body: unknown = text
  try { body = JSON.parse(text) } catch {}
  const codec = kernel.formats.get(format)
  const info = codec ? codec.error.decode(status, body) : { status, message: text.slice(0, 500) }
  // The upstream rejecting our credential is not the client's fault: report it as an upstream failure.
  const clientStatus = status === 401 || status === 403 ? 502 : status
  return { ...info, status: clientStatus, message: info.message || `upstream returned ${status}` }
}

async function finishWithError(kernel: ProxyKernel, request: ProxyRequest, candidate: Candidate | undefined, info: Failure): Promise<Response> {
  await kernel.hooks.callHook('after-response', { request, candidate, status: info.status, error: info.message, durationMs: Date.now() - request.startedAt, responseHeaders: {} })
  const response = errorResponse(kernel, request.inbound, info)
  if (request.timing) response.headers.set(overheadHeader, overheadValue(request.timing))
  if (info.retryAfter !== undefined) response.headers.set('retry-after', String(Math.max(1, Math.ceil(info.retryAfter))))
  return response
}

/** Cheap check before passing a body through unparsed: a JSON object starts with `{` and ends with `}`. */
function looksLikeJsonObject(text: string): boolean {
  const start = text.search(/\S/)
  let end = text.length - 1
  while (end > 0 && text.charCodeAt(end) <= 32) end--
  return start !== -1 && text.charCodeAt(start) === 123 && text.charCodeAt(end) === 125
}
