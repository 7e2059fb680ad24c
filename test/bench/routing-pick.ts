import { pickCandidate } from '../../plugins/routing/pick.ts'
import { RoutingState } from '../../plugins/routing/state.ts'
import { createStorage } from 'unstorage'
import type { Candidate } from '../../core/kernel/hooks.ts'

/** Credential pick + mark at 10, 100 and 1,000 credentials (µs per operation, median of 5 runs). */
export async function benchRoutingPick(): Promise<Array<Record<string, string | number>>> {
  const rows: Array<Record<string, string | number>> = []
  for (const size of [10, 100, 1000]) {
    const candidates: Candidate[] = Array.from({ length: size }, (_, i) => ({
      upstreamModel: 'm',
      credential: { id: `c${i}`, family: 'compat', provider: `p${i % 4}`, priority: i % 3, baseUrl: '', headers: {}, prefix: '', models: [], excludedModels: [], attributes: {} },
    }))
    const state = new RoutingState(createStorage())
    // A realistic pool: a tenth of it cooling down.
    for (let i = 0; i < size; i += 10) state.markQuota(`c${i}`, 'm', 600)
    const cursors = new Map<string, number>()
    const tried = new Set<string>()
    const runs: number[] = []
    const iterations = 20_000
    for (let run = 0; run < 5; run++) {
      const start = process.hrtime.bigint()
      for (let i = 0; i < iterations; i++) {
        const { pick } = pickCandidate({ model: 'm', candidates, tried, strategy: 'round-robin', available: c => state.availability(c), cursors })
        state.markSuccess(pick!.credential.id, 'm')
      }
      runs.push(Number(process.hrtime.bigint() - start) / 1000 / iterations)
    }
    runs.sort((a, b) => a - b)
    rows.push({ credentials: size, 'pick+mark µs': Number(runs[2]!.toFixed(2)) })
  }
  return rows
}
