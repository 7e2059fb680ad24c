import type { ProxyKernel } from '../kernel/kernel.ts'
import type { Candidate, ProxyRequest, RouteContext } from '../kernel/hooks.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { clientSignal } from '../edge/client-abort.ts'
import { candidateKey } from '../models/model-index.ts'
import { shownModelName } from '../models/shown-name.ts'
import { endableAnswer } from './open-answers.ts'
import { FastResponse } from 'srvx'
import { clientErrorInfo, errorBody, errorResponse, toErrorInfo } from './error-response.ts'
import { withNonStreamKeepalive } from './nonstream-keepalive.ts'
import { overheadHeader, overheadValue, startTiming } from './timing.ts'
import type { RunOptions } from './answer-plan.ts'
import { attemptOnce } from './attempt.ts'
import { pickCandidate } from './pick.ts'
import type { Failure } from './outcome.ts'
import { promptTokensEstimate, settledUsage } from './usage-estimate.ts'
import { checkCandidates, checkHookError, isCandidate } from './hook-results.ts'
import { restingBodyError } from './resting-body-check.ts'

export type { RunOptions } from './answer-plan.ts'

/** Hard stop for a misbehaving routing plugin: never loop forever. */
const maxAttempts = 64
const leftWaiting: Failure = { status: 499, message: 'the client closed the connection while the request waited for a credential', type: 'client_closed' }

/**
 * The executor loop: resolve candidates, then per attempt pick a credential, shape the upstream request,
 * send it, and let `attempt-result` hooks decide whether to try again — only ever before the first
 * byte reaches the client. Steps: `route-resolve` here, `pickCandidate` (pick.ts), `attemptOnce`
 * (attempt.ts: prepare, exchange, answer or fail), and `finishWithError` for every failed request.
 */
export function runPipeline(kernel: ProxyKernel, request: ProxyRequest, options: RunOptions = {}): Promise<Response> {
  const interval = kernel.config['nonstream-keepalive-interval']
  const run = runAttempts(kernel, request, options)
  // A shutdown whose drain window ran out answers a request still waiting for its upstream.
  const answer = endableAnswer(kernel, run, (message, status) => errorResponse(kernel, request.inbound, { status, message, type: 'server_error', code: 'shutting_down' }))
  return !request.stream && interval > 0 ? withNonStreamKeepalive(answer, interval) : answer
}

async function runAttempts(kernel: ProxyKernel, request: ProxyRequest, options: RunOptions): Promise<Response> {
  request.timing ??= startTiming()
  const state: { candidate?: Candidate } = {}
  try {
    return await tryCandidates(kernel, request, options, state)
  } catch (error) {
    // A failure of the proxy itself (a deciding hook, a missing codec): the client gets it in its own
    // format, and `after-response` observers see the request end like any other.
    const info = toErrorInfo(error)
    if (info.status >= 500) kernel.logger.error(`request ${request.id} (${request.inbound} ${request.model}): ${info.message}:`, (error as Error).cause ?? error)
    return finishWithError(kernel, request, state.candidate, info)
  }
}

async function tryCandidates(kernel: ProxyKernel, request: ProxyRequest, options: RunOptions, state: { candidate?: Candidate }): Promise<Response> {
  const route: RouteContext = { request, candidates: [] }
  await kernel.hooks.callHook('route-resolve', route)
  if (route.error) return finishWithError(kernel, request, undefined, checkHookError(route.error, 'route-resolve'))
  if (!checkCandidates(route.candidates).length) {
    return finishWithError(kernel, request, undefined, new ProxyError(404, `model ${JSON.stringify(shownModelName(request.model))} is not served by any configured provider`, 'invalid_request_error', 'model_not_found').info)
  }

  const tried = new Set<string>()
  // A client that leaves, stream or not, takes its upstream call with it, so a long non-stream
  // generation does not keep spending the credential's quota.
  const signal = clientSignal(request.event)
  let lastError: Failure | undefined
  let next: Candidate | undefined

  for (let number = 0; number < maxAttempts; number++) {
    let candidate = next
    next = undefined
    if (!candidate) {
      const pick = await pickCandidate(kernel, request, route.candidates, tried, signal)
      if (pick.kind === 'none') {
        // A client that left while the request waited for a credential ends as one, not as the error nobody got.
        if (signal.aborted) return finishWithError(kernel, request, state.candidate, leftWaiting)
        lastError = (!tried.size && restingBodyError(kernel, request, route.candidates)) || pick.error || lastError
        break
      }
      candidate = pick.candidate
    }
    state.candidate = candidate
    tried.add(candidateKey(candidate))

    const outcome = await attemptOnce(kernel, { request, candidate, number, signal, options })
    if (outcome.kind === 'answered') return outcome.response
    if (signal.aborted) return clientLeft(kernel, request, candidate)
    lastError = outcome.failure
    if (outcome.result.action !== 'retry') return finishWithError(kernel, request, candidate, withRetryAfter(kernel, outcome.failure, route.candidates))
    // attempt-result is an observer: a retryWith that is no candidate is ignored like a failed listener.
    next = isCandidate(outcome.result.retryWith) ? outcome.result.retryWith : undefined
  }

  return finishWithError(kernel, request, state.candidate, withRetryAfter(kernel, lastError ?? { status: 503, message: `no credential is available for model ${JSON.stringify(shownModelName(request.model))}`, type: 'server_error', code: 'no_credential_available' }, route.candidates))
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

/**
 * The client left before its answer began: nobody reads an answer, but `after-response` observers see
 * the request end like any other (a client key's reservation is settled now, not when it lapses; usage
 * records it). The prompt went upstream: it is charged as estimated, as a stream the client left is.
 */
async function clientLeft(kernel: ProxyKernel, request: ProxyRequest, candidate: Candidate): Promise<Response> {
  const usage = settledUsage(promptTokensEstimate(request), undefined, true, 0)
  await kernel.hooks.callObservers('after-response', { request, candidate, status: 499, error: 'the client closed the connection before the answer began', usage, durationMs: Date.now() - request.startedAt, responseHeaders: {} })
  return new Response(null, { status: 499 })
}

/** A failed request: `after-response` observers see it, the client gets the error in its own format. */
async function finishWithError(kernel: ProxyKernel, request: ProxyRequest, candidate: Candidate | undefined, failure: Failure): Promise<Response> {
  // Observers see the status the client gets (a messages 529 is a chat client's 503).
  const info = clientErrorInfo(kernel, request.inbound, failure)
  const body = errorBody(kernel, request.inbound, info)
  const answerText = JSON.stringify(body)
  await kernel.hooks.callObservers('after-response', { request, candidate, status: info.status, error: info.message, durationMs: Date.now() - request.startedAt, responseHeaders: {}, answerText })
  const response = new FastResponse(answerText, { status: info.status, headers: { 'content-type': 'application/json' } })
  if (request.timing) response.headers.set(overheadHeader, overheadValue(request.timing))
  if (info.retryAfter !== undefined) response.headers.set('retry-after', String(Math.max(1, Math.ceil(info.retryAfter))))
  return response
}
