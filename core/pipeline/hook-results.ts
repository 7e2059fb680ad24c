import type { Candidate } from '../kernel/hooks.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { isErrorStatus } from '../kernel/hook-bus.ts'
import type { Failure } from './outcome.ts'

/**
 * What deciding listeners leave on their context (`route-resolve`'s `candidates` and `error`,
 * `credential-pick`'s `pick` and `error`) is read as a plugin's answer, so it is checked before the
 * kernel acts on it: garbage there is the plugins' 500 naming the hook, not a 200 carrying an error
 * body, a status 999, an empty 500, or a crash later in whichever plugin reads it next (the routing
 * plugin used to be blamed for another plugin's candidates).
 */
const hookBug = (hook: string, what: string) => new ProxyError(500, `the ${hook} hooks left ${what}`, 'server_error', 'plugin_hook_failed')

/** A candidate the executor can send with: a credential with a family, and a model name. */
export function isCandidate(value: unknown): value is Candidate {
  const { credential, upstreamModel } = (value ?? {}) as Partial<Candidate>
  return typeof upstreamModel === 'string' && !!credential && typeof credential === 'object' && typeof credential.family === 'string' && typeof credential.id === 'string'
}

export function checkCandidates(candidates: unknown): Candidate[] {
  if (!Array.isArray(candidates) || !candidates.every(isCandidate)) throw hookBug('route-resolve', 'candidates that are no list of candidates')
  return candidates
}

export function checkPick(pick: unknown): Candidate {
  if (!isCandidate(pick)) throw hookBug('credential-pick', 'a pick that is no candidate')
  return pick
}

/** An `error` a listener set: a client error with an error status and a message, else the plugins' 500. */
export function checkHookError<F extends Failure | undefined>(error: F, hook: string): F {
  if (error === undefined) return error
  const { status, message } = (error ?? {}) as Partial<Failure>
  if (isErrorStatus(status) && typeof message === 'string') return error
  throw hookBug(hook, 'an error that is no error (it needs a 4xx or 5xx status and a message)')
}
