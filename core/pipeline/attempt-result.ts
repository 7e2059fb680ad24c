import type { ProxyKernel } from '../kernel/kernel.ts'
import type { AttemptResult, Candidate, ProxyRequest, StreamWatch } from '../kernel/hooks.ts'
import type { ProviderDef } from '../provider/provider.ts'
import type { AnswerPlan } from './answer-plan.ts'
import type { UpstreamClock } from './timing.ts'
import { classifyUpstreamStatus } from './upstream-status.ts'
import type { AttemptOutcome, Failure } from './outcome.ts'

/** One upstream attempt as its steps see it. */
export interface Attempt {
  kernel: ProxyKernel
  request: ProxyRequest
  candidate: Candidate
  provider: ProviderDef
  plan: AnswerPlan
  /** 0-based number of this attempt within the request. */
  number: number
  clock: UpstreamClock
  /** Set by an `upstream-reply` listener: sees the stream's chunks (reply-hook.ts). */
  watch?: StreamWatch
}

/**
 * A failed attempt: the kernel's default decision (retry while `request-retry` allows and the status is
 * retryable), then `attempt-result` hooks, which may change it.
 */
export async function failAttempt(attempt: Attempt, failure: Failure, status: number, how: { bootstrap?: boolean; detail?: string; headers?: AttemptResult['headers'] } = {}): Promise<AttemptOutcome> {
  const { kernel, request, candidate, number, clock } = attempt
  // A 200 stream that broke before its first event failed like a 502 (the next credential may answer);
  // streaming.bootstrap-retries allows that many tries more for this case.
  const bootstrap = how.bootstrap ?? false
  const allowed = kernel.config['request-retry'] + (bootstrap ? kernel.config.streaming['bootstrap-retries'] : 0)
  const retry = classifyUpstreamStatus(status) === 'retry' && number < allowed
  const result: AttemptResult = { request, candidate, status, attempt: number, bootstrap, retryAfter: failure.retryAfter, message: failure.message, detail: how.detail, action: retry ? 'retry' : 'fail', firstByteMs: clock.firstByteMs, durationMs: clock.stop(), headers: how.headers }
  await kernel.hooks.callObservers('attempt-result', result)
  return { kind: 'failed', failure, result }
}

/**
 * The client left and took the attempt with it: no retry follows (run.ts ends the request), and the
 * credential did nothing wrong, so observers hear a 499 that gives up, not an upstream failure retried.
 */
export function clientCalledOff(attempt: Attempt, detail?: string): Promise<AttemptOutcome> {
  return failAttempt(attempt, { status: 499, message: 'the client closed the connection before the answer began', type: 'client_closed' }, 499, { detail })
}

/** The attempt answered: `attempt-result` hooks learn it (routing marks the credential good). */
export function attemptDone(attempt: Attempt, status: number, headers?: AttemptResult['headers']): void | Promise<void> {
  const { kernel, request, candidate, number, clock } = attempt
  return kernel.hooks.callObservers('attempt-result', { request, candidate, status, attempt: number, action: 'done', firstByteMs: clock.firstByteMs, headers })
}
