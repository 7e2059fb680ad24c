// The collector's share of the proxy's work under the bench load: runs it with --trace-gc and sums the
// scavenges and mark-compacts of a measured run (after a 2 s warm-up), per request. Steadier than a CPU
// profile for telling whether a tree keeps requests alive past a young collection.
//   node --import jiti/register test/bench/gc.ts
// PROF_SMALL=1 (a small chat request; else the agent body: PROF_KB, PROF_MODEL as in heap.ts),
// PROF_SECONDS (6), PROF_ROOT (another checkout of the project), GC_ARGS (more Node flags), GC_CONCURRENCY, GC_LOG (a file for
// the measured run's trace: with GC_ARGS=--trace-gc-nvp it says what each scavenge copied and promoted).
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { load } from './proxy/load.ts'
import { agentBody, agentHeaders } from './proxy/agent-body.ts'
import { cpuMicros, startMock, startProxy } from './proxy/processes.ts'

const small = !!process.env.PROF_SMALL
const body = small ? { model: 'bench', messages: [{ role: 'user', content: 'hello' }] } : agentBody(Number(process.env.PROF_KB ?? 150), process.env.PROF_MODEL ?? 'bench-claude')
const mock = await startMock()
const forceMajor = process.env.GC_FORCE_MAJOR ? ['--expose-gc', '--import', fileURLToPath(new URL('./proxy/gc-on-signal.mjs', import.meta.url))] : []
const proxy = await startProxy(mock.url, ['--trace-gc', ...forceMajor, ...(process.env.GC_ARGS?.split(' ').filter(Boolean) ?? [])], process.env.PROF_ROOT)
let log = ''
proxy.child.stdout!.on('data', (chunk: Buffer) => { log += chunk })
const run = (seconds: number) => load(`${proxy.url}${small ? '/v1/chat/completions' : '/v1/messages'}`, body, Number(process.env.GC_CONCURRENCY ?? (small ? 32 : 16)), seconds, small ? {} : agentHeaders())
await run(2)
// GC_FORCE_MAJOR=1: a full collection at the start of the measured run (the proxy is started with
// --expose-gc and a SIGUSR2 handler): what follows one, without waiting for V8 to schedule it.
if (process.env.GC_FORCE_MAJOR) setTimeout(() => process.kill(proxy.pid, 'SIGUSR2'), 500)
log = ''
const cpuBefore = cpuMicros(proxy.pid)
const result = await run(Number(process.env.PROF_SECONDS ?? 6))
const cpu = cpuMicros(proxy.pid) - cpuBefore
await proxy.stop()
await mock.stop()
if (process.env.GC_LOG) writeFileSync(process.env.GC_LOG, log)

// `Scavenge 59.1 (78.3) -> 48.8 (80.3) MB, 7.59 / 0.01 ms` (+ `N ms in M steps` of incremental marking).
const totals = new Map<string, { count: number; ms: number }>()
for (const match of log.matchAll(/(Scavenge|Mark-Compact)[^,]*, ([\d.]+) \/ [\d.]+ ms(?:\s+\(\+ ([\d.]+) ms in)?/g)) {
  const total = totals.get(match[1]!) ?? { count: 0, ms: 0 }
  total.count++
  total.ms += Number(match[2]) + Number(match[3] ?? 0)
  totals.set(match[1]!, total)
}
// --trace-gc-nvp lines say what each scavenge promoted: bytes that outlived two young collections.
const promoted = [...log.matchAll(/gc=s .* promoted=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0)
if (promoted) console.log(`promoted by scavenges: ${(promoted / 1024 / result.requests).toFixed(2)} KB per request`)
const heaps = [...log.matchAll(/Scavenge [\d.]+ \([\d.]+\) -> ([\d.]+)/g)].map(match => Number(match[1]))
console.log(`${result.requests} requests (${Math.round(result.rps)}/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.errors} errors): ${Math.round(cpu / result.requests)} µs CPU per request`)
for (const [kind, { count, ms }] of totals) console.log(`${kind}: ${count} collections, ${Math.round(ms)} ms, ${(ms * 1000 / result.requests).toFixed(1)} µs per request`)
if (heaps.length) console.log(`heap after scavenges: ${heaps[0]} -> ${heaps.at(-1)} MB`)
