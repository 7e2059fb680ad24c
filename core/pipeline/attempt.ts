import type { ProxyKernel } from '../kernel/kernel.ts'
import type { Candidate, ProxyRequest } from '../kernel/hooks.ts'
import type { ProviderDef } from '../provider/provider.ts'
import type { UpstreamHttpRequest } from '../upstream/send.ts'
import type { ClientSignal } from '../edge/client-abort.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { buildUpstreamBody } from './upstream-body.ts'
import { restoreSignatures } from './signature-store.ts'
import { planAnswer, type RunOptions } from './answer-plan.ts'
import { exchange, statusFailure, upstreamTimeouts } from './exchange.ts'
import { answerBuffered, answerStream } from './answer.ts'
import { startTiming, startUpstreamClock } from './timing.ts'
import { clientCalledOff, failAttempt, type Attempt } from './attempt-result.ts'
import { announceReply } from './reply-hook.ts'
import { scrubSecrets } from '../provider/credential.ts'
import { askUpstreamForUsage } from './usage-option.ts'
import type { AttemptOutcome } from './outcome.ts'
import { upstreamRequestProblem } from './upstream-check.ts'

export interface AttemptInput {
  request: ProxyRequest
  candidate: Candidate
  /** 0-based number of this attempt within the request. */
  number: number
  signal: ClientSignal
  options: RunOptions
}

/** One upstream attempt: shape the request, send it, then answer the client or report the failure. */
export async function attemptOnce(kernel: ProxyKernel, { request, candidate, number, signal, options }: AttemptInput): Promise<AttemptOutcome> {
  const provider = kernel.providers.get(candidate.credential.family)
  if (!provider) throw new ProxyError(500, `provider family ${candidate.credential.family} is not installed`, 'server_error')
  const plan = planAnswer(request, provider, candidate.upstreamModel, options)
  const http = await prepareUpstream(kernel, request, candidate, provider, plan.passthrough)
  // Time spent waiting for this upstream is not the proxy's overhead (timing.ts).
  const clock = startUpstreamClock(request.timing ??= startTiming())
  const attempt: Attempt = { kernel, request, candidate, provider, plan, number, clock }
  const reply = await exchange(http, request.stream, signal, upstreamTimeouts(kernel.config))
  if (reply.kind === 'unreachable') {
    // Not sent at all: a request the hooks left unsendable is the plugin's bug, the same on every credential.
    const problem = reply.status === 0 ? upstreamRequestProblem(http) : undefined
    if (problem) throw new ProxyError(500, `the before-upstream hooks left an upstream request that cannot be sent: ${problem}`, 'server_error', 'plugin_hook_failed')
    if (signal.aborted) return clientCalledOff(attempt, reply.detail)
    return failAttempt(attempt, reply.failure, reply.status, { detail: reply.detail })
  }
  clock.firstByteMs = reply.headersAt - clock.sentAt
  if (reply.status >= 400) {
    const text = scrubSecrets(reply.kind === 'buffered' ? reply.text : await reply.body.text().catch(() => ''), candidate.credential)
    const announced = announceReply(attempt, reply, text)
    if (announced) await announced
    return failAttempt(attempt, statusFailure(kernel, reply, provider.format, text), reply.status, { headers: reply.headers })
  }
  // An upstream may quote the key it was sent in a 200 answer too (streams: answerStream).
  if (reply.kind === 'buffered') reply.text = scrubSecrets(reply.text, candidate.credential)
  const announced = announceReply(attempt, reply)
  if (announced) await announced
  return reply.kind === 'stream' ? answerStream(attempt, reply) : answerBuffered(attempt, reply)
}

/** The upstream request: body in the provider's format, the provider's URL and auth, then `before-upstream` hooks. */
async function prepareUpstream(kernel: ProxyKernel, request: ProxyRequest, candidate: Candidate, provider: ProviderDef, passthrough: boolean): Promise<UpstreamHttpRequest> {
  await restoreSignatures(kernel, request, provider.format)
  const body = buildUpstreamBody(kernel, request, provider.format, candidate.upstreamModel)
  const http = provider.buildRequest({ credential: candidate.credential, model: candidate.upstreamModel, body, stream: request.stream, endpoint: request.endpoint, clientHeaders: request.event.req.headers })
  // A same-format stream reports its usage even when the client did not ask (accounting reads it).
  if (passthrough) askUpstreamForUsage(kernel.formats.get(provider.format), request, http)
  // Rule 13: the entry's own proxy-url wins; '' there means direct; otherwise the global one.
  http.proxyUrl ??= kernel.config['proxy-url'] || undefined
  await kernel.hooks.callHook('before-upstream', { request, candidate, http })
  return http
}
