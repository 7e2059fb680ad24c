import type { ResponseContext } from '../kernel/hooks.ts'
import { answerResponse, SocketPipe, sseHeaders, type AnswerBody } from '../edge/respond.ts'
import { translateResponse } from './non-stream.ts'
import { AnswerStream, createStreamTransform, type StreamOutcome } from './stream.ts'
import { HookedAnswer, hookStreamFailed } from './hooked-answer.ts'
import { StreamResponseContext } from './stream-context.ts'
import { openAnswersOf } from './open-answers.ts'
import { overheadHeader, overheadValue } from './timing.ts'
import { releaseBody, releaseParsedBody } from './request.ts'
import { attemptDone, clientCalledOff, failAttempt, type Attempt } from './attempt-result.ts'
import { watchTransform } from './reply-hook.ts'
import type { AttemptOutcome, UpstreamReply } from './outcome.ts'
import { promptTokensEstimate, settledUsage } from './usage-estimate.ts'
import { answerObject, errorAnswerStatus, usageOfAnswer } from './answer-usage.ts'
import { statusFailure } from './exchange.ts'
import { scrubSecrets } from '../provider/credential.ts'
import { maskedTransform } from './scrub-transform.ts'
import { droppedHeaderValue } from '../canonical/dropped.ts'
import { answerHeaders } from './answer-headers.ts'
import { clientSignal } from '../edge/client-abort.ts'

/** Names what a translated request lost on its way upstream, comma-separated in the client's field names. */
export const droppedHeader = 'x-proxy-dropped'

type Reply<K> = Extract<UpstreamReply, { kind: K }>
const jsonType = { 'content-type': 'application/json' }

/**
 * A 200 stream: read up to its first whole event before answering (a stream that dies or sends junk
 * before it can still fail over), then pipe it event by event. `after-response` runs when it ends.
 */
export async function answerStream(attempt: Attempt, reply: Reply<'stream'>): Promise<AttemptOutcome> {
  const { kernel, request, plan, clock } = attempt
  let transform
  try {
    transform = createStreamTransform(kernel, request, plan)
    if (attempt.watch) transform = watchTransform(transform, attempt.watch)
    transform = maskedTransform(transform, attempt.candidate.credential)
  } catch (error) {
    reply.body.destroy()
    throw error
  }
  const gone = clientSignal(request.event)
  const answer = new AnswerStream(reply.body, transform, gone)
  const broken = await answer.primed
  // A first event that is an error: nothing went out, so it fails as a 200 whole error body does (answerBuffered).
  const error = answer.errorFirst
  if (error) return failAttempt(attempt, statusFailure(kernel, { ...reply, status: error.status }, plan.upstream, scrubSecrets(error.data, attempt.candidate.credential)), error.status)
  if (broken !== undefined && gone.aborted) return clientCalledOff(attempt, broken)
  if (broken !== undefined) return failAttempt(attempt, { status: 502, message: `upstream stream failed before its first byte: ${broken}`, type: 'server_error' }, 502, { bootstrap: true })
  clock.stop()
  await attemptDone(attempt, reply.status, reply.headers)
  // Before the parsed body is let go: the estimate's basis should the upstream report no usage.
  const promptTokens = promptTokensEstimate(request)
  releaseParsedBody(request)
  const ctx = new StreamResponseContext(request, attempt.candidate, reply.status, reply.headers, droppedHeaders(request), answer)
  ctx.sse = plan.sse
  const ended = new Promise<StreamOutcome>(resolve => answer.start(resolve, openAnswersOf(kernel)))
  await kernel.hooks.callObservers('before-response', ctx)
  // Every hook that may read the body has had its chance, or said it needs it later (`keepBody`).
  releaseBody(request)
  // A hook took the web stream: the request ends where that stream does (a failing one fails it).
  const web = ctx.sent()
  const hooked = web && new HookedAnswer(web, answer, gone, error => kernel.warnLimited('before-response-stream', `request ${request.id}: ${hookStreamFailed}: ${(error as Error)?.stack ?? String(error)}`))
  // After `before-response`, never during it (a short stream can end while its listeners still run).
  // Observers never reject: a failing one is logged, the stream and the process are not its to end.
  void (hooked ? hooked.outcome : ended).then((outcome) => {
    ctx.usage = settledUsage(promptTokens, outcome.usage, outcome.partial ?? false, outcome.delivered ?? 0)
    ctx.error = outcome.error
    if (outcome.clientLeft) ctx.clientLeft = true
    ctx.durationMs = Date.now() - request.startedAt
    ctx.upstreamMs = performance.now() - clock.sentAt
    return kernel.hooks.callObservers('after-response', ctx)
  })
  return respond(attempt, ctx, new SocketPipe(hooked || answer), ctx.sse ? sseHeaders : jsonType)
}

/** A whole answer: the upstream's bytes when they already are the client's, else translated. */
export async function answerBuffered(attempt: Attempt, reply: Reply<'buffered'>): Promise<AttemptOutcome> {
  const { kernel, request, plan, clock } = attempt
  // A byte order mark some servers write first is no part of the JSON (JSON.parse refuses it; streams drop it too).
  const text = reply.text.charCodeAt(0) === 0xfeff ? reply.text.slice(1) : reply.text
  // A 200 that is no JSON object (a gateway's HTML page, a garbled body) is an upstream failure like a 502,
  // on every path (a passed-through answer is parsed for its usage anyway): the next credential may answer.
  const json = answerObject(text)
  if (!json) return failAttempt(attempt, { status: 502, message: 'upstream returned a body that is not JSON', type: 'server_error', code: 'bad_upstream_response' }, 502)
  // An error body with a 200 (some gateways and relays): the attempt failed as with the error's own status.
  const errorStatus = errorAnswerStatus(kernel.formats.get(plan.upstream), json)
  if (errorStatus !== undefined) return failAttempt(attempt, statusFailure(kernel, { ...reply, status: errorStatus }, plan.upstream, scrubSecrets(text, attempt.candidate.credential)), errorStatus)
  const ctx = responseContext(attempt, reply)
  ctx.upstreamMs = clock.stop()
  await attemptDone(attempt, reply.status, reply.headers)
  ctx.durationMs = Date.now() - request.startedAt
  // Same format, same model name: the upstream's bytes are the answer, read for their usage only.
  if (plan.passthrough && plan.upstreamModel === request.model) {
    ctx.usage = settledUsage(promptTokensEstimate(request), usageOfAnswer(kernel, plan.upstream, json), false, 0)
    return respondWhole(attempt, ctx, text)
  }
  const translated = translateResponse(kernel, request, plan, json)
  ctx.usage = settledUsage(promptTokensEstimate(request), translated.usage, false, 0)
  ctx.answer = translated.body
  return respondWhole(attempt, ctx, JSON.stringify(translated.body))
}

function responseContext({ request, candidate }: Attempt, reply: Reply<'buffered'>): ResponseContext {
  return { request, candidate, status: reply.status, durationMs: 0, upstreamHeaders: reply.headers, responseHeaders: droppedHeaders(request) }
}

/** What the translation could not carry is said in the answer (docs/clients.md). */
const droppedHeaders = (request: Attempt['request']): Record<string, string> => request.dropped?.length ? { [droppedHeader]: droppedHeaderValue(request.dropped) } : {}

async function respondWhole(attempt: Attempt, ctx: ResponseContext, body: string): Promise<AttemptOutcome> {
  ctx.answerText = body
  await attempt.kernel.hooks.callObservers('before-response', ctx)
  await attempt.kernel.hooks.callObservers('after-response', ctx)
  return respond(attempt, ctx, body, jsonType)
}

function respond({ kernel, request }: Attempt, ctx: ResponseContext, body: AnswerBody, contentType: Record<string, string>): AttemptOutcome {
  const own = request.timing ? { ...contentType, [overheadHeader]: overheadValue(request.timing) } : contentType
  // Observers that run after (a stream's after-response: the recorder) see it too, if the listeners left an object to write to.
  if (request.timing) try { ctx.responseHeaders[overheadHeader] = own[overheadHeader]! } catch {}
  const headers = answerHeaders(ctx.responseHeaders, own, message => kernel.warnLimited('before-response-headers', `request ${request.id}: ${message}`))
  return { kind: 'answered', response: answerResponse(request.event, body, headers) }
}
