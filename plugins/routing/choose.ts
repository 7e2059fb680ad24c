import { requestField, type ProxyKernel, type Candidate, type PickContext } from 'model-proxy'
import type { RoutingState } from './state.ts'
import { pickCandidate } from './pick.ts'
import { candidateKey } from 'model-proxy/kit/models'
import { headroom } from './rate-limits.ts'
import { AffinityStore } from './affinity.ts'
import { boundedPick, stickyChoice } from './sticky.ts'
import { sessionKeyOf } from './session-key.ts'
import { routeState, type RouteState } from './route-state.ts'
import { buildStages, fitsStage } from './fallback.ts'

export interface Chooser { kernel: ProxyKernel; state: RoutingState; affinity: AffinityStore; cursors: Map<string, number> }

/** The request's session, worked out once (null: none, or affinity is off). */
export function sessionOf(kernel: ProxyKernel, ctx: Pick<PickContext, 'request'>, rs: RouteState): RouteState['session'] {
  if (rs.session !== undefined) return rs.session
  if (kernel.config.routing['session-affinity'] === 'off') return rs.session = null
  const { request } = ctx
  // Plain values only: an object literal with a getter keeps its closure (and so the request) alive
  // through young collections (docs/benchmarks.md). With the client's bytes, the body is not needed.
  const found = sessionKeyOf({
    body: request.clientBody ? undefined : request.body,
    field: key => requestField(request, key),
    clientBody: request.clientBody,
    inbound: request.inbound,
    model: request.servedModel ?? request.model,
    headers: request.event.req.headers,
  })
  if (!found) return rs.session = null
  const hash = AffinityStore.hash(found.key)
  request.session = hash.slice(0, 12)
  return rs.session = { ...found, hash }
}

/**
 * `credential-pick`: the current model's candidates (fallback chain), the session's credential while it
 * is ready, else the strategy (under the share bound for new sessions); when a model has nothing left,
 * its next fallback. Sets `ctx.pick`, `ctx.waitUntil` or `ctx.error` like the spec's picker.
 * Synchronous unless it must read storage (a session's binding) or count tokens (a fallback's window).
 */
export function choose(chooser: Chooser, ctx: PickContext): void | Promise<void> {
  const rs = routeState(ctx.request)
  if (rs.stages === undefined && Object.keys(chooser.kernel.config.fallbacks).length) rs.stages = buildStages(chooser.kernel, ctx.request, ctx.candidates)
  const need = chooseNow(chooser, ctx, rs)
  if (!need) return
  const ready = need.advance === undefined
    ? chooser.affinity.get(need.binding).then((binding) => { rs.binding = binding ?? null })
    : advance(chooser.kernel, rs, ctx, need.advance)
  return ready.then(() => choose(chooser, ctx))
}

type Need = { binding: string; advance?: undefined } | { advance: string }

function chooseNow(chooser: Chooser, ctx: PickContext, rs: RouteState): Need | undefined {
  const { kernel, state } = chooser
  const { config } = kernel
  if (rs.exhausted) return { advance: 'every candidate failed' }
  const session = sessionOf(kernel, ctx, rs)
  // Every credential is judged at one moment: a cooldown that ended between the check for a ready one
  // and the look for the earliest to be ready (which the wake-up after a wait lands right on) was in
  // neither, and the request failed with "no credential" instead of taking it.
  const now = state.now()
  // A refused credential (401, 403) is not waited for: it is a last resort (below), not a cooldown to wait out.
  const available = (c: Candidate) => {
    const availability = state.availability(c, now)
    return typeof availability === 'number' && state.refusedUntil(c, now) !== undefined ? false : availability
  }
  const stage = rs.stages?.[rs.stage]
  if (rs.stages && !stage) return
  let candidates = stage ? stage.candidates : ctx.candidates
  const limit = config['max-retry-credentials']
  const seen = limit > 0 ? (rs.credentials ??= new Set()) : undefined
  if (seen && seen.size >= limit) candidates = candidates.filter(c => seen.has(c.credential.id))

  if (session) {
    if (rs.binding === undefined) return { binding: session.hash }
    if (rs.binding) {
      const sticky = stickyChoice(rs.binding, candidates, ctx.tried, available, config.routing['session-affinity'] === 'strict', now + config['max-retry-interval'] * 1000)
      if ('pick' in sticky) return take(ctx, rs, sticky.pick)
      if ('wait' in sticky) { ctx.waitUntil = sticky.wait; return }
      rs.moveReason ??= sticky.move
    }
  }

  const headroomOf = config.routing.strategy === 'quota-aware' ? (c: Candidate) => headroom(state.record(c.credential.id)?.windows).free : undefined
  const result = pickCandidate({ model: stage?.model ?? ctx.request.model, candidates, tried: ctx.tried, strategy: config.routing.strategy, available, cursors: chooser.cursors, headroom: headroomOf })
  if (result.pick) {
    const pick = session && !rs.binding ? boundedPick(result.pick, candidates, ctx.tried, available, chooser.affinity.shares()) : result.pick
    return take(ctx, rs, pick)
  }
  // Nothing ready on this model: a fallback model answers now rather than waiting out a cooldown.
  if (rs.stages && rs.stage + 1 < rs.stages.length) return { advance: result.earliestReady === undefined ? 'no credential left' : 'every credential cools down' }
  const waitMs = result.earliestReady === undefined ? Number.POSITIVE_INFINITY : result.earliestReady - now
  if (waitMs <= config['max-retry-interval'] * 1000) {
    ctx.waitUntil = result.earliestReady
    return
  }
  // Only refused credentials left (or none soon ready): the one refused longest ago is tried again, so the
  // client gets the vendor's own refusal (or an answer, if the key works again), not a 429 about cooldowns.
  const lastResort = refusedLastResort(state, candidates, ctx.tried, now)
  if (lastResort) return take(ctx, rs, lastResort)
  if (result.earliestReady === undefined) return
  const seconds = Math.ceil(waitMs / 1000)
  ctx.error = {
    status: 429,
    type: 'rate_limit_error',
    code: 'model_cooldown',
    retryAfter: seconds,
    message: `all credentials for model ${stage?.model ?? ctx.request.model} are cooling down after quota errors; the first resets in ${seconds}s (at ${new Date(result.earliestReady).toISOString()})`,
  }
}

/** The untried candidate whose refusal cooldown ends first, if any. */
function refusedLastResort(state: RoutingState, candidates: readonly Candidate[], tried: ReadonlySet<string>, now: number): Candidate | undefined {
  let best: Candidate | undefined
  let bestUntil = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const until = state.refusedUntil(candidate, now)
    if (until === undefined || until >= bestUntil || tried.has(candidateKey(candidate)) || state.availability(candidate, now) === false) continue
    best = candidate
    bestUntil = until
  }
  return best
}

function take(ctx: PickContext, rs: RouteState, pick: Candidate): undefined {
  ctx.pick = pick
  rs.credentials?.add(pick.credential.id)
  return undefined
}

/** On to the next model of the chain that fits the request's context (logged); the last one stays current when none is left. */
async function advance(kernel: ProxyKernel, rs: RouteState, ctx: PickContext, why: string): Promise<void> {
  rs.exhausted = false
  const stages = rs.stages
  if (!stages) return
  const from = stages[rs.stage]!.model
  while (rs.stage + 1 < stages.length) {
    rs.stage++
    rs.stageFailures = 0
    const stage = stages[rs.stage]!
    const misfit = await fitsStage(kernel, ctx.request, stage)
    if (misfit) {
      kernel.logger.info(`request ${ctx.request.id}: fallback ${stage.model} skipped: ${misfit}`)
      continue
    }
    ctx.request.servedModel = stage.model === ctx.request.model ? undefined : stage.model
    kernel.logger.info(`request ${ctx.request.id}: ${from} -> fallback ${stage.model} (${why})`)
    return
  }
  // No model of the chain fits: nothing more to try.
  rs.stage = stages.length
}
