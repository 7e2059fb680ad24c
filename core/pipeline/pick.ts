import type { ProxyKernel } from '../kernel/kernel.ts'
import type { Candidate, PickContext, ProxyRequest } from '../kernel/hooks.ts'
import type { ClientSignal } from '../edge/client-abort.ts'
import { sleep } from './sleep.ts'
import type { Failure } from './outcome.ts'
import { checkHookError, checkPick } from './hook-results.ts'
import { ProxyError } from '../errors/proxy-error.ts'

/** Rounds of "wait until <a time already past>" one pick tolerates before it is the plugins' bug. */
const maxPastWaits = 200

export type Pick = { kind: 'picked'; candidate: Candidate } | { kind: 'none'; error?: Failure }

/**
 * Ask `credential-pick` hooks for the next candidate. When they answer "none now, one at `waitUntil`",
 * wait (the time counts as waiting, not overhead) and ask again; a client that left stops the wait.
 */
export async function pickCandidate(kernel: ProxyKernel, request: ProxyRequest, candidates: Candidate[], tried: Set<string>, signal: ClientSignal): Promise<Pick> {
  let pastWaits = 0
  for (;;) {
    const pick: PickContext = { request, candidates, tried }
    await kernel.hooks.callHook('credential-pick', pick)
    if (pick.pick) return { kind: 'picked', candidate: checkPick(pick.pick) }
    if (pick.waitUntil === undefined || signal.aborted) return { kind: 'none', error: checkHookError(pick.error, 'credential-pick') }
    // NaN or Infinity would sleep 1 ms (setTimeout's floor) and ask again, a busy loop for as long as the client waits.
    if (!Number.isFinite(pick.waitUntil)) throw new ProxyError(500, 'the credential-pick hooks left a waitUntil that is no time (ms since the epoch)', 'server_error', 'plugin_hook_failed')
    const ms = pick.waitUntil - Date.now()
    // A time already past, asked again and again: a wait that never waits turned into a loop of microtasks
    // that froze the whole process. Each round now yields to the event loop, and a few hundred fail it.
    if (ms <= 0 && ++pastWaits > maxPastWaits) throw new ProxyError(500, 'the credential-pick hooks kept asking to wait until a time already past, and picked nothing', 'server_error', 'plugin_hook_failed')
    const waitStart = performance.now()
    await sleep(Math.max(ms, 1), signal)
    if (request.timing) request.timing.waitedMs += performance.now() - waitStart
  }
}
