import type { ProxyKernel } from '../kernel/kernel.ts'
import type { Candidate, PickContext, ProxyRequest } from '../kernel/hooks.ts'
import type { ClientSignal } from '../edge/client-abort.ts'
import { sleep } from './sleep.ts'
import type { Failure } from './outcome.ts'

export type Pick = { kind: 'picked'; candidate: Candidate } | { kind: 'none'; error?: Failure }

/**
 * Ask `credential-pick` hooks for the next candidate. When they answer "none now, one at `waitUntil`",
 * wait (the time counts as waiting, not overhead) and ask again; a client that left stops the wait.
 */
export async function pickCandidate(kernel: ProxyKernel, request: ProxyRequest, candidates: Candidate[], tried: Set<string>, signal: ClientSignal): Promise<Pick> {
  for (;;) {
    const pick: PickContext = { request, candidates, tried }
    await kernel.hooks.callHook('credential-pick', pick)
    if (pick.pick) return { kind: 'picked', candidate: pick.pick }
    if (pick.waitUntil === undefined || signal.aborted) return { kind: 'none', error: pick.error }
    const waitStart = performance.now()
    await sleep(pick.waitUntil - Date.now(), signal)
    if (request.timing) request.timing.waitedMs += performance.now() - waitStart
  }
}
