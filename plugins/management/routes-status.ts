import { endedStatus, type ProxyKernel } from 'model-proxy'
import { addManagementRoute, type Guard } from './route.ts'
import { buildHeaders } from './build-info.ts'
import { RequestWindow } from './request-window.ts'
import { brokenStream, requestOutcome } from './outcome.ts'

const windowSeconds = 300

/**
 * `GET /status` (read-only; our addition for the control panel's dashboard): what no other endpoint
 * gives — uptime, requests per minute and the error rate of this instance's recent client requests,
 * and how many credentials are in each state. Per-credential detail stays in `GET /credentials`.
 */
export function addStatusRoute(kernel: ProxyKernel, guard: Guard): void {
  const recent = new RequestWindow(windowSeconds)
  kernel.hooks.hook('after-response', (ctx) => {
    const outcome = requestOutcome(endedStatus(ctx), Boolean(ctx.candidate), brokenStream(ctx))
    recent.add(Date.now(), outcome === 'upstream' || outcome === 'proxy', outcome === 'client')
  })

  addManagementRoute(kernel, guard, 'GET', '/status', () => {
    const now = Date.now()
    const routing = kernel.services.routingState
    const states = { ready: 0, cooldown: 0, blocked: 0, disabled: 0 }
    for (const credential of kernel.credentials) states[routing?.stateOf(credential.id, now) ?? 'ready']++
    const minute = recent.count(now, 60)
    const window = recent.count(now, windowSeconds)
    return {
      version: buildHeaders['x-proxy-version'],
      commit: buildHeaders['x-proxy-commit'],
      'build-date': buildHeaders['x-proxy-build-date'],
      'started-at': new Date(now - process.uptime() * 1000).toISOString(),
      'uptime-seconds': Math.floor(process.uptime()),
      'requests-per-minute': minute.requests,
      'errors-per-minute': minute.errors,
      // Upstream and proxy failures only: a client's own mistake (bad JSON, unknown model, wrong key) is counted apart.
      'error-rate': window.requests ? window.errors / window.requests : 0,
      'client-mistakes-per-minute': minute.clientMistakes,
      'window-client-mistakes': window.clientMistakes,
      'window-seconds': windowSeconds,
      'window-requests': window.requests,
      credentials: { total: kernel.credentials.length, ...states },
    }
  })
}
