import type { AttemptResult } from 'model-proxy'
import { classifyUpstreamStatus } from 'model-proxy/kit/errors'
import { isQuotaError } from './cooldown.ts'
import { nextAfterQuota } from './quota-plan.ts'
import { windowsFromHeaders } from './rate-limits.ts'
import { existingRouteState } from './route-state.ts'
import { fallbackWorthy } from './fallback.ts'
import type { Chooser } from './choose.ts'
import { ownerOf } from './credential-owner.ts'

/**
 * `attempt-result`: quota windows into credential state; success binds the session (a move is logged);
 * quota errors cool the credential down and follow rule 10, refusals (401, 403) cool it down too; a model
 * that gave up hands over to its next fallback.
 */
export function afterAttempt({ kernel, state, affinity }: Chooser, ctx: AttemptResult): void {
  const { credential } = ctx.candidate
  // A request that ran while its credential was removed or moved in the config: what its answer says is
  // not written into the state of the credential at that id now.
  const tracked = state.current(credential.id, ownerOf(credential))
  if (ctx.headers && tracked) {
    const windows = windowsFromHeaders(ctx.headers)
    if (windows) state.setWindows(credential.id, windows)
  }
  const rs = existingRouteState(ctx.request)
  if (ctx.action === 'done') {
    if (tracked) state.markSuccess(credential.id, ctx.candidate.upstreamModel)
    const session = rs?.session
    if (session) {
      const previous = rs.binding ?? undefined
      if (previous && previous.credential !== credential.id) {
        kernel.logger.info(`session ${ctx.request.session} (${session.source}) moved from ${previous.credential} to ${credential.id}: ${rs.moveReason ?? 'its credential failed'}`)
      }
      affinity.bind(session.hash, credential.id, ctx.candidate.upstreamModel, kernel.config.routing['session-affinity-ttl'], previous)
    }
    return
  }
  // A stream broken before its first event: the executor already decided (request-retry + bootstrap-retries).
  const quota = !ctx.bootstrap && isQuotaError(ctx.status, ctx.message)
  // The upstream refused the credential itself (a revoked key, an account without access to the model): it
  // cools down like a quota error, so requests stop paying a failed attempt on it, but stays a last resort.
  if (!quota && !ctx.bootstrap && (ctx.status === 401 || ctx.status === 403) && tracked) {
    const cooldown = state.markQuota(credential.id, ctx.candidate.upstreamModel, undefined, ctx.message, true)
    kernel.logger.info(`cooldown: ${credential.id} for ${ctx.candidate.upstreamModel} until ${new Date(cooldown.until).toISOString()} (refused ${ctx.status}, failure ${cooldown.failures} in a row)`)
  }
  if (quota) {
    if (tracked) {
      const cooldown = state.markQuota(credential.id, ctx.candidate.upstreamModel, ctx.retryAfter, ctx.message)
      kernel.logger.info(`cooldown: ${credential.id} for ${ctx.candidate.upstreamModel} until ${new Date(cooldown.until).toISOString()} (quota error ${ctx.status}, failure ${cooldown.failures} in a row)`)
    }
    const switches = kernel.config['quota-exceeded']
    const next = nextAfterQuota(ctx.candidate, { switchProject: switches['switch-project'], switchPreviewModel: switches['switch-preview-model'] }, ctx.request.model)
    if (next === 'stop') ctx.action = 'fail'
    else if (next === 'next-credential') ctx.action = 'retry'
    else {
      ctx.action = 'retry'
      ctx.retryWith = next
    }
  }
  if (!rs?.stages || rs.stages.length < 2) return
  rs.stageFailures++
  if (ctx.action !== 'fail' || !fallbackWorthy(ctx.status, ctx.message)) return
  // Each model has its own retry budget; a quota stop or a spent budget hands over to the next model.
  if (!quota && classifyUpstreamStatus(ctx.status) === 'retry' && rs.stageFailures <= kernel.config['request-retry']) {
    ctx.action = 'retry'
    return
  }
  if (rs.stage + 1 >= rs.stages.length) return
  rs.exhausted = true
  ctx.action = 'retry'
  ctx.retryWith = undefined
}
