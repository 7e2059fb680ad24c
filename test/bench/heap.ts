// What the proxy allocates on the JS heap per request, by function: the bench load against a proxy that
// samples every allocation (collected ones included; test/bench/proxy/heap-sampler.mjs). On this kind of
// VM allocation volume is what costs (GC and fresh pages), so this says where to cut.
//   node --import jiti/register test/bench/heap.ts
// PROF_KB (agent body size, 150), PROF_MODEL (bench-claude: same format; bench: translated to compat),
// PROF_SMALL=1 (a small chat request instead), PROF_SECONDS (5), PROF_ROOT (another checkout of the project),
// HEAP_LIVE=1 (only what is still alive at the end: what a leak or a ring holds), HEAP_PROFILE (where the profile goes, /tmp/proxy-heap.heapprofile).
import { readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { load } from './proxy/load.ts'
import { agentBody, agentHeaders } from './proxy/agent-body.ts'
import { startMock, startProxy } from './proxy/processes.ts'

interface HeapNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children?: HeapNode[] }

const file = process.env.HEAP_PROFILE ?? '/tmp/proxy-heap.heapprofile'
rmSync(file, { force: true })
process.env.HEAP_PROFILE = file
const sampler = fileURLToPath(new URL('./proxy/heap-sampler.mjs', import.meta.url))
const mock = await startMock()
const proxy = await startProxy(mock.url, ['--import', sampler], process.env.PROF_ROOT)
const small = !!process.env.PROF_SMALL
const body = small ? { model: 'bench', messages: [{ role: 'user', content: 'hello' }] } : agentBody(Number(process.env.PROF_KB ?? 150), process.env.PROF_MODEL ?? 'bench-claude')
const run = (seconds: number) => load(`${proxy.url}${small ? '/v1/chat/completions' : '/v1/messages'}`, body, small ? 32 : 16, seconds, small ? {} : agentHeaders())
// A warm-up first (jiti's first compiles of a fresh tree, lazy imports), then sampling from SIGUSR2 on.
await run(2)
const started = new Promise<void>(resolve => proxy.child.stdout!.on('data', (chunk: Buffer) => { if (String(chunk).includes('heap sampling started')) resolve() }))
proxy.child.kill('SIGUSR2')
await started
const result = await run(Number(process.env.PROF_SECONDS ?? 5))
await proxy.stop()
await mock.stop()

const bytes = new Map<string, number>()
const walk = (node: HeapNode) => {
  const name = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber}`
  bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize)
  for (const child of node.children ?? []) walk(child)
}
walk((JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode }).head)
const kb = (n: number) => (n / 1024 / result.requests).toFixed(1).padStart(7)
const total = [...bytes.values()].reduce((sum, n) => sum + n, 0)
console.log(`${result.requests} requests (${Math.round(result.rps)}/s): ${kb(total).trim()} KB allocated per request (sampled after a 2 s warm-up); profile: ${file}\n`)
for (const [name, n] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${kb(n)} KB/request  ${name}`)
