import { createStorage } from 'unstorage'
import { pickCandidate, type Strategy } from '../../plugins/routing/pick.ts'
import { RoutingState } from '../../plugins/routing/state.ts'
import { AffinityStore } from '../../plugins/routing/affinity.ts'
import { sessionKeyOf } from '../../plugins/routing/session-key.ts'
import { windowsFromHeaders, headroom } from '../../plugins/routing/rate-limits.ts'
import type { Candidate } from '../../core/kernel/hooks.ts'

/** µs per call, median of 5 runs. */
async function time(iterations: number, work: () => unknown): Promise<number> {
  const runs: number[] = []
  for (let run = 0; run < 5; run++) {
    const start = process.hrtime.bigint()
    for (let i = 0; i < iterations; i++) await work()
    runs.push(Number(process.hrtime.bigint() - start) / 1000 / iterations)
  }
  return Number(runs.sort((a, b) => a - b)[2]!.toFixed(2))
}

/** What the agent-routing features cost per request (docs/agent-routing.md), next to the spec's pick. */
export async function benchRoutingFeatures(): Promise<Array<Record<string, string | number>>> {
  const candidates: Candidate[] = Array.from({ length: 10 }, (_, i) => ({
    upstreamModel: 'm',
    credential: { id: `c${i}`, family: 'beta', provider: 'p', priority: 0, baseUrl: '', headers: {}, prefix: '', models: [], excludedModels: [], attributes: {} },
  }))
  const state = new RoutingState(createStorage())
  const rateHeaders = { 'anthropic-ratelimit-tokens-limit': '1000', 'anthropic-ratelimit-tokens-remaining': '400', 'anthropic-ratelimit-tokens-reset': '2030-01-01T00:00:00Z', 'content-type': 'application/json', 'request-id': 'r' }
  for (const c of candidates) state.setWindows(c.credential.id, windowsFromHeaders(rateHeaders)!)
  const pick = (strategy: Strategy, cursors = new Map<string, number>()) => () => pickCandidate({ model: 'm', candidates, tried: new Set(), strategy, available: c => state.availability(c), cursors, headroom: c => headroom(state.record(c.credential.id)?.windows).free })
  const system = 'Project rules. '.repeat(1500)
  const single = { model: 'm', messages: [{ role: 'user', content: 'hi' }] }
  const multi = { model: 'm', messages: [{ role: 'system', content: system }, { role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }] }
  const none = new Headers({ 'content-type': 'application/json', authorization: 'Bearer x' })
  const signalled = new Headers({ 'x-claude-code-session-id': 'ada3278a-e524-41b6-b92c-c9bdacc1d4c7' })
  const affinity = new AffinityStore(createStorage())
  const hash = AffinityStore.hash('m\u0000x\u0000session')
  affinity.bind(hash, 'c1', 'm', 3600)
  return [
    { step: 'pick, round-robin (spec)', µs: await time(50_000, pick('round-robin')) },
    { step: 'pick, quota-aware', µs: await time(50_000, pick('quota-aware')) },
    { step: 'session key: single turn, no signal (features idle)', µs: await time(50_000, () => sessionKeyOf({ body: single, inbound: 'chat', model: 'm', headers: none })) },
    { step: 'session key: agent header', µs: await time(50_000, () => sessionKeyOf({ body: single, inbound: 'chat', model: 'm', headers: signalled })) },
    { step: 'session key: prefix hash, 22 KB system prompt', µs: await time(5_000, () => sessionKeyOf({ body: multi, inbound: 'chat', model: 'm', headers: none })) },
    { step: 'affinity lookup (memory storage)', µs: await time(20_000, () => affinity.get(hash)) },
    { step: 'rate-limit headers -> windows', µs: await time(50_000, () => windowsFromHeaders(rateHeaders)) },
  ]
}
