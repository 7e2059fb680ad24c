import type { Candidate } from 'model-proxy'
import { candidateKey } from 'model-proxy/kit/models'
import type { Binding } from './affinity.ts'
import { overShare } from './affinity.ts'
import type { Availability } from './pick.ts'

export type StickyChoice = { pick: Candidate } | { wait: number } | { move: string }

/**
 * Where a bound session goes: its credential while that is ready; with `strict`, a wait for a cooldown
 * that ends within `waitLimit` (epoch ms); otherwise a move, with the reason for the log.
 */
export function stickyChoice(binding: Binding, candidates: Candidate[], tried: ReadonlySet<string>, available: Availability, strict: boolean, waitLimit: number): StickyChoice {
  let own: Candidate | undefined
  let triedOwn = false
  for (const candidate of candidates) {
    if (candidate.credential.id !== binding.credential) continue
    if (tried.has(candidateKey(candidate))) { triedOwn = true; continue }
    if (!own || candidate.upstreamModel === binding.upstreamModel) own = candidate
  }
  if (!own) return { move: triedOwn ? 'its credential failed' : 'its credential does not serve this model' }
  const state = available(own)
  if (state === true) return { pick: own }
  if (state === false) return { move: 'its credential is blocked or disabled' }
  if (strict && state <= waitLimit) return { wait: state }
  return { move: `its credential cools down until ${new Date(state).toISOString()}` }
}

/**
 * A new session's pick under the share bound: when the strategy's choice already holds more than its
 * share of live sessions (affinity.ts `overShare`), the ready candidate of the same priority holding the
 * fewest takes it instead.
 */
export function boundedPick(pick: Candidate, candidates: Candidate[], tried: ReadonlySet<string>, available: Availability, shares: Map<string, number>): Candidate {
  const peers = candidates.filter(c => c.credential.priority === pick.credential.priority && !tried.has(candidateKey(c)) && available(c) === true)
  const ids = [...new Set(peers.map(c => c.credential.id))]
  if (!overShare(shares, ids).has(pick.credential.id)) return pick
  let best = pick
  for (const peer of peers) if ((shares.get(peer.credential.id) ?? 0) < (shares.get(best.credential.id) ?? 0)) best = peer
  return best
}
