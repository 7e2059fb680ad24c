// Where the proxy's CPU goes per request: starts the bench mock and a proxy under --cpu-prof, drives it
// with the bench load, and prints the functions with the most self and inclusive time, in µs per request.
//   node --import jiti/register test/bench/profile.ts
// PROF_KB (agent body size, 80), PROF_MODEL (bench-claude: same format; bench: translated to compat),
// PROF_FORMAT=chat (the agent request as a chat client sends it, chat -> compat), PROF_SMALL=1 (a small chat request instead),
// PROF_STREAM=1 (the answer streamed, the mock writing each event on its own), PROF_MODEL with PROF_SMALL (bench-claude: the small
// request translated to messages), PROF_SECONDS (6),
// PROF_SAME_BODY=1 (one body again and again; by default each request is the agent's next turn), PROF_YAML (config for the proxy, e.g. 'recorder: { mode: all }'), BENCH_STORAGE (memory, fs, redis),
// PROF_DIR (where the .cpuprofile goes, /tmp/proxy-profile), PROF_ROOT (another checkout of the project:
// profile an older tree with today's load), PROF_CONNECTIONS (16; 32 for PROF_SMALL; 1 prices one request
// at a time), PROF_SCRIPT (a bare forwarder from proxy/stack/, e.g. srvx-h3-undici.mjs, profiled instead of
// the proxy: diff it with the proxy's profile to see what the proxy adds to its stack). Compare two runs to
// see what a change costs.
import { fileURLToPath } from 'node:url'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { load, varyMark } from './proxy/load.ts'
import { agentBody, agentHeaders, chatAgentBody } from './proxy/agent-body.ts'
import { start, startMock, startProxy } from './proxy/processes.ts'

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }

const dir = process.env.PROF_DIR ?? '/tmp/proxy-profile'
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })
const small = !!process.env.PROF_SMALL
const chat = small || process.env.PROF_FORMAT === 'chat'
const kb = Number(process.env.PROF_KB ?? 80)
const streamed = !!process.env.PROF_STREAM
const body = small ? { model: process.env.PROF_MODEL ?? 'bench', messages: [{ role: 'user', content: 'hello' }], ...(streamed && { stream: true }) } : chat ? chatAgentBody(kb, 'bench') : agentBody(kb, process.env.PROF_MODEL ?? 'bench-claude')
// PROF_SAME_BODY=1: one body again and again; otherwise each request is the agent's next turn (as the agent bench sends).
const vary = !small && !process.env.PROF_SAME_BODY
if (vary) (body.messages as unknown[]).push({ role: 'user', content: `turn ${varyMark}` })

const mock = await startMock(0, streamed)
const profiling = ['--cpu-prof', `--cpu-prof-dir=${dir}`]
const script = process.env.PROF_SCRIPT
const proxy = script
  ? await start([...profiling, fileURLToPath(new URL(`./proxy/stack/${script}`, import.meta.url))], { UPSTREAM: mock.url })
  : await startProxy(mock.url, profiling, process.env.PROF_ROOT, process.env.PROF_YAML)
const connections = Number(process.env.PROF_CONNECTIONS ?? (small ? 32 : 16))
const result = await load(`${proxy.url}${chat ? '/v1/chat/completions' : '/v1/messages'}`, body, connections, Number(process.env.PROF_SECONDS ?? 6), { ...(chat ? {} : agentHeaders()), ...(streamed && { accept: 'text/event-stream' }) }, vary)
await proxy.stop()
await mock.stop()

const file = readdirSync(dir).find(name => name.endsWith('.cpuprofile'))!
const profile = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }
const byId = new Map(profile.nodes.map(node => [node.id, node]))
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
const selfTime = new Map<number, number>()
profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + profile.timeDeltas[i]!))

const nameOf = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber}`
const self = new Map<string, number>()
const inclusive = new Map<string, number>()
for (const [id, time] of selfTime) {
  const name = nameOf(byId.get(id)!)
  self.set(name, (self.get(name) ?? 0) + time)
  // Each function once per stack (recursion counted once).
  const seen = new Set<string>()
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = nameOf(byId.get(at)!)
    if (seen.has(frame)) continue
    seen.add(frame)
    inclusive.set(frame, (inclusive.get(frame) ?? 0) + time)
  }
}
const top = (times: Map<string, number>, count: number) => [...times].sort((a, b) => b[1] - a[1]).slice(0, count)
  .map(([name, time]) => `${(time / result.requests).toFixed(0).padStart(6)} µs/request  ${name}`).join('\n')
console.log(`${result.requests} requests (${Math.round(result.rps)}/s); profile: ${dir}/${file}`)
console.log(`\nself time\n${top(self, 30)}`)
console.log(`\ninclusive time\n${top(inclusive, 45)}`)
