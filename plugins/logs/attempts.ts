import { defineRequestState, type ProxyKernel, type AttemptResult } from 'model-proxy'

/** `attempt 2 of req-1 (model m) via compat:shared:0.0 -> up-model`: credential ids only, never a secret. */
const describe = (ctx: AttemptResult) => `attempt ${ctx.attempt + 1} of ${ctx.request.id} (model ${ctx.request.model}) via ${ctx.candidate.credential.id} -> ${ctx.candidate.upstreamModel}`

/**
 * What happened between a request and its answer: every failed upstream attempt (status, reason, what
 * comes next) and every failover to another credential at INFO; successful attempts at DEBUG (written
 * only with `debug: true`). Cooldowns are logged by routing where they are set.
 */
export function logAttempts(kernel: ProxyKernel, write: (level: string, message: string) => void): void {
  const failedOn = defineRequestState<string>('logs failed on')
  kernel.hooks.hook('attempt-result', (ctx) => {
    const previous = failedOn.get(ctx.request)
    const credential = ctx.candidate.credential.id
    if (previous && previous !== credential) kernel.logger.info(`failover of ${ctx.request.id}: ${previous} -> ${credential}`)
    if (ctx.action === 'done') {
      if (kernel.config.debug && kernel.config['logging-to-file']) write('DEBUG', `${describe(ctx)}: ${ctx.status}${ctx.firstByteMs !== undefined ? ` in ${Math.round(ctx.firstByteMs)} ms` : ''}`)
      return
    }
    failedOn.set(ctx.request, credential)
    const status = ctx.status ? `status ${ctx.status}` : 'no connection'
    const reason = ctx.detail ?? ctx.message
    const next = ctx.action === 'retry' ? (ctx.retryWith ? `retrying with ${ctx.retryWith.upstreamModel}` : 'retrying') : 'giving up'
    kernel.logger.info(`${describe(ctx)} failed: ${status}${ctx.bootstrap ? ' (stream died before its first byte)' : ''}${reason ? `: ${reason.slice(0, 300)}` : ''}${ctx.retryAfter !== undefined ? ` (Retry-After ${ctx.retryAfter}s)` : ''}; ${next}`)
  })
}
