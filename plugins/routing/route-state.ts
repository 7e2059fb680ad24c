import { defineRequestState, type Candidate, type ProxyRequest } from 'model-proxy'
import type { Binding } from './affinity.ts'
import type { SessionKey } from './session-key.ts'

/** One model of a request's chain: the one resolved, then its fallbacks in order. */
export interface Stage { model: string; candidates: Candidate[] }

/** What routing knows about one request across its attempts. */
export interface RouteState {
  /** undefined = not looked at yet; null = no session. */
  session?: (SessionKey & { hash: string }) | null
  /** Where the session was served last (looked up once per request). */
  binding?: Binding | null
  /** Why the session left its credential this time (for the log line). */
  moveReason?: string
  stages?: Stage[]
  stage: number
  /** The current model gave up (attempt-result): the next pick moves on to the next fallback. */
  exhausted?: boolean
  /** Failed attempts on the current stage (each model gets its own `request-retry` budget). */
  stageFailures: number
  credentials?: Set<string>
}

const states = defineRequestState<RouteState>('routing')

/** The state, only if routing has looked at this request already. */
export const existingRouteState = (request: ProxyRequest): RouteState | undefined => states.get(request)

export function routeState(request: ProxyRequest): RouteState {
  let state = states.get(request)
  if (!state) states.set(request, state = { stage: 0, stageFailures: 0 })
  return state
}
