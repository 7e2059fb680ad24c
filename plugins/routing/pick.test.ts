import { describe, expect, it } from 'vitest'
import { pickCandidate, type PickInput } from './pick.ts'
import type { Candidate } from 'model-proxy'

const candidate = (id: string, provider = 'p', priority = 0): Candidate => ({
  upstreamModel: 'm',
  credential: { id, provider, family: 'compat', priority, baseUrl: '', headers: {}, prefix: '', models: [], excludedModels: [], attributes: {} },
})

function run(candidates: Candidate[], picks: number, overrides: Partial<PickInput> = {}): string[] {
  const cursors = new Map<string, number>()
  const out: string[] = []
  for (let i = 0; i < picks; i++) {
    const result = pickCandidate({ model: 'm', candidates, tried: new Set(), strategy: 'round-robin', available: () => true, cursors, ...overrides })
    out.push(result.pick?.credential.id ?? '-')
  }
  return out
}

describe('pickCandidate', () => {
  it('round-robin cycles through ready credentials', () => {
    expect(run([candidate('a'), candidate('b'), candidate('c')], 6)).toEqual(['a', 'b', 'c', 'a', 'b', 'c'])
  })

  it('fill-first keeps the first ready one until it is unavailable', () => {
    expect(run([candidate('a'), candidate('b')], 3, { strategy: 'fill-first' })).toEqual(['a', 'a', 'a'])
    expect(run([candidate('a'), candidate('b')], 2, { strategy: 'fill-first', available: c => c.credential.id !== 'a' || 5000 })).toEqual(['b', 'b'])
  })

  it('uses the highest priority level that has a ready credential', () => {
    const pool = [candidate('low', 'p', 0), candidate('high1', 'p', 5), candidate('high2', 'p', 5)]
    expect(run(pool, 4)).toEqual(['high1', 'high2', 'high1', 'high2'])
    expect(run(pool, 2, { available: c => c.credential.priority === 0 || 9999 })).toEqual(['low', 'low'])
  })

  it('rotates across providers, then across accounts inside each', () => {
    const pool = [candidate('x1', 'x'), candidate('x2', 'x'), candidate('x3', 'x'), candidate('y1', 'y')]
    expect(run(pool, 6)).toEqual(['x1', 'y1', 'x2', 'y1', 'x3', 'y1'])
  })

  it('skips tried, blocked and cooling candidates and reports the earliest cooldown end', () => {
    const pool = [candidate('a'), candidate('b'), candidate('c')]
    const result = pickCandidate({
      model: 'm', candidates: pool, tried: new Set(['a\u0000m']), strategy: 'round-robin', cursors: new Map(),
      available: c => c.credential.id === 'b' ? 2000 : c.credential.id === 'c' ? 1500 : true,
    })
    expect(result).toEqual({ earliestReady: 1500 })
    expect(pickCandidate({ model: 'm', candidates: pool, tried: new Set(), strategy: 'round-robin', cursors: new Map(), available: () => false })).toEqual({ earliestReady: undefined })
  })
})
