import type { Candidate } from 'model-proxy'
import { candidateKey } from 'model-proxy/kit/models'

export type Strategy = 'round-robin' | 'fill-first' | 'quota-aware'

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
  /** `quota-aware`: a candidate's unspent share of its tightest quota window (0..1; 1 when unknown). */
  headroom?: (candidate: Candidate) => number
}

export interface PickResult {
  pick?: Candidate
  /** When nothing is ready: the earliest moment an untried candidate leaves cooldown. */
  earliestReady?: number
}

interface Member { candidate: Candidate; key: string }
interface ProviderGroup { name: string; cursorKey: string; members: Member[] }
interface Level { priority: number; providers: ProviderGroup[]; members?: Member[] }

/** Candidates grouped once per list (the model index hands out the same array until it is rebuilt). */
const plans = new WeakMap<Candidate[], { model: string; levels: Level[] }>()

function planFor(candidates: Candidate[], model: string): Level[] {
  const cached = plans.get(candidates)
  if (cached && cached.model === model) return cached.levels
  const levels: Level[] = []
  for (const candidate of candidates) {
    const { priority, provider } = candidate.credential
    let level = levels.find(l => l.priority === priority)
    if (!level) levels.push(level = { priority, providers: [] })
    let group = level.providers.find(g => g.name === provider)
    if (!group) level.providers.push(group = { name: provider, cursorKey: `${priority}\u0000${provider}\u0000${model}`, members: [] })
    group.members.push({ candidate, key: candidateKey(candidate) })
  }
  levels.sort((a, b) => b.priority - a.priority)
  plans.set(candidates, { model, levels })
  return levels
}

/**
 * Routing rules 1, 2 and 8: the highest priority level with a ready candidate; inside it round-robin
 * across providers and then across that provider's accounts (fill-first: the first ready one in
 * order). Scans start at the cursors and stop at the first ready candidate, so a pick is O(1) in the
 * usual case whatever the pool size; only when nothing is ready is the whole list read.
 */
export function pickCandidate(input: PickInput): PickResult {
  const levels = planFor(input.candidates, input.model)
  const ready = (member: Member) => (input.tried.size === 0 || !input.tried.has(member.key)) && input.available(member.candidate) === true
  const roundRobin = input.strategy !== 'fill-first'
  for (const level of levels) {
    if (input.strategy === 'quota-aware' && input.headroom) {
      const best = mostHeadroom(level, ready, input.headroom, input.cursors)
      if (best) return { pick: best }
      continue
    }
    const providers = level.providers
    const providerKey = `${level.priority}\u0000${input.model}`
    const providerStart = roundRobin ? (input.cursors.get(providerKey) ?? 0) : 0
    for (let p = 0; p < providers.length; p++) {
      const providerIndex = (providerStart + p) % providers.length
      const group = providers[providerIndex]!
      const start = roundRobin ? (input.cursors.get(group.cursorKey) ?? 0) : 0
      for (let m = 0; m < group.members.length; m++) {
        const index = (start + m) % group.members.length
        const member = group.members[index]!
        if (!ready(member)) continue
        if (roundRobin) {
          input.cursors.set(group.cursorKey, index + 1)
          input.cursors.set(providerKey, providerIndex + 1)
        }
        return { pick: member.candidate }
      }
    }
  }
  return { earliestReady: earliestReady(input) }
}

/** `quota-aware`: the ready candidate of the level with the most headroom; round-robin among equals. */
function mostHeadroom(level: Level, ready: (member: Member) => boolean, headroom: (candidate: Candidate) => number, cursors: Map<string, number>): Candidate | undefined {
  const members = level.members ??= level.providers.flatMap(group => group.members)
  const cursorKey = `quota\u0000${level.providers[0]?.cursorKey ?? ''}`
  const start = cursors.get(cursorKey) ?? 0
  let best: number | undefined
  let bestFree = -1
  for (let i = 0; i < members.length; i++) {
    const index = (start + i) % members.length
    const member = members[index]!
    if (!ready(member)) continue
    const free = headroom(member.candidate)
    if (free > bestFree + 1e-9) {
      best = index
      bestFree = free
    }
  }
  if (best === undefined) return
  cursors.set(cursorKey, best + 1)
  return members[best]!.candidate
}

function earliestReady(input: PickInput): number | undefined {
  let earliest: number | undefined
  for (const candidate of input.candidates) {
    if (input.tried.has(candidateKey(candidate))) continue
    const state = input.available(candidate)
    if (typeof state === 'number' && (earliest === undefined || state < earliest)) earliest = state
  }
  return earliest
}
