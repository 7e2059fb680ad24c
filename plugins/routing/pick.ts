import type { Candidate } from '../../core/hooks.ts'
import { candidateKey } from '../../core/model-index.ts'

export type Strategy = 'round-robin' | 'fill-first'

/** `true` = selectable now; a number = cooling down until then (epoch ms); `false` = blocked or disabled. */
export type Availability = (candidate: Candidate) => true | number | false

export interface PickInput {
  model: string
  candidates: Candidate[]
  tried: ReadonlySet<string>
  strategy: Strategy
  available: Availability
  /** Round-robin cursors, per model (across providers) and per provider+model (across accounts). */
  cursors: Map<string, number>
}

export interface PickResult {
  pick?: Candidate
  /** When nothing is ready: the earliest moment an untried candidate leaves cooldown. */
  earliestReady?: number
}

/**
 * Routing rules 1, 2 and 8 in one pass: drop tried and unavailable candidates, keep the highest
 * priority level that has one ready, then round-robin across providers and, inside the chosen
 * provider, across its accounts (or take the first one: fill-first). Cursors index the full candidate
 * list, so a skipped candidate does not shift the rotation.
 */
export function pickCandidate(input: PickInput): PickResult {
  const { candidates } = input
  let best = -Infinity
  let earliestReady: number | undefined
  const eligible = new Array<boolean>(candidates.length).fill(false)
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i]!
    if (input.tried.has(candidateKey(candidate))) continue
    const state = input.available(candidate)
    if (state === false) continue
    if (state !== true) {
      if (earliestReady === undefined || state < earliestReady) earliestReady = state
      continue
    }
    eligible[i] = true
    if (candidate.credential.priority > best) best = candidate.credential.priority
  }
  const ok = (i: number) => eligible[i] && candidates[i]!.credential.priority === best
  if (best === -Infinity) return { earliestReady }
  if (input.strategy === 'fill-first') return { pick: candidates[eligible.findIndex((_, i) => ok(i))] }

  const providers: string[] = []
  for (const candidate of candidates) if (!providers.includes(candidate.credential.provider)) providers.push(candidate.credential.provider)
  let provider = providers[0]!
  if (providers.length > 1) {
    const hasReady = (name: string) => candidates.some((c, i) => ok(i) && c.credential.provider === name)
    const index = rotate(input.cursors, input.model, providers.length, i => hasReady(providers[i]!))
    provider = providers[index]!
  }
  const accounts: number[] = []
  for (let i = 0; i < candidates.length; i++) if (candidates[i]!.credential.provider === provider) accounts.push(i)
  const index = rotate(input.cursors, `${provider}\u0000${input.model}`, accounts.length, i => ok(accounts[i]!))
  return { pick: candidates[accounts[index]!] }
}

/** From the cursor, the first position that passes `usable`; the cursor moves just past it. */
function rotate(cursors: Map<string, number>, key: string, length: number, usable: (i: number) => boolean): number {
  const start = cursors.get(key) ?? 0
  for (let step = 0; step < length; step++) {
    const i = (start + step) % length
    if (usable(i)) {
      cursors.set(key, i + 1)
      return i
    }
  }
  return start % length
}
