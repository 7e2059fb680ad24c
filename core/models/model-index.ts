import type { Credential } from '../provider/credential.ts'
import type { Candidate } from '../kernel/hooks.ts'
import { isServedOffer } from './model-match.ts'

/**
 * Client model name -> every (credential, upstream model) that can serve it. Rebuilt whenever the
 * credential set changes, so the hot path is one Map lookup.
 */
export function buildModelIndex(credentials: Credential[], forceModelPrefix: boolean): Map<string, Candidate[]> {
  const index = new Map<string, Candidate[]>()
  const add = (id: string, candidate: Candidate) => {
    const list = index.get(id)
    if (list) list.push(candidate)
    else index.set(id, [candidate])
  }
  for (const credential of credentials) {
    for (const offer of credential.models) {
      if (!isServedOffer(credential.excludedModels, offer)) continue
      const candidate = { credential, upstreamModel: offer.upstream }
      if (credential.prefix) add(`${credential.prefix}/${offer.id}`, candidate)
      if (!credential.prefix || !forceModelPrefix) add(offer.id, candidate)
    }
  }
  return index
}

/** Identity of one candidate: a credential and an upstream model (a model pool has several per credential). */
export const candidateKey = (candidate: Candidate) => `${candidate.credential.id}\u0000${candidate.upstreamModel}`
