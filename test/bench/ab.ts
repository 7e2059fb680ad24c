// A/B of two trees of this project, each started as `proxy start` on the same bench mock, interleaved
// with the floor: CPU µs per request (from /proc) and requests per second, round by round.
//   git worktree add /tmp/base HEAD~1 && ln -s "$PWD/node_modules" /tmp/base/node_modules
//   node --import jiti/register test/bench/ab.ts /tmp/base [.]      (BENCH_ROUNDS, BENCH_SECONDS)
// AB_CASE=agent-80 / agent-150 (same format, messages -> beta), agent-80-translated (messages -> compat) or
// agent-80-chat (same format, chat -> compat); `-screenshot` at the end puts a 1.1 MB pasted screenshot in
// the first user message (agent-150-translated-screenshot):
// the agent-sized requests of `npm run bench -- agent` at c=16 instead of a small chat request at c=32.
// AB_STREAM=1: the small chat request streamed, from a mock that writes each of its 64 events on its own
// (the token-by-token rows of `npm run bench -- proxy`).
// AB_YAML_A / AB_YAML_B: config added to one side only, e.g. one tree twice, recorder off against on:
//   AB_YAML_B='recorder: { mode: all }' node --import jiti/register test/bench/ab.ts . .
// AB_NODE_ARGS_A / AB_NODE_ARGS_B: Node flags for one side (AB_NODE_ARGS_B='--max-semi-space-size=64').
// AB_VARY=last (a new last turn in every request: an agent's next turn) or all (every message changed, so
// no part of one body comes again in the next): what the last-turn cache (core/json/turn-cache.ts)
// meets in real sessions, where the default sends the same body again and again.
// AB_INSTANCES (2): proxy processes per side. One process can cost 10-40% more than another of the same
// tree for its whole life (docs/benchmarks.md, "per-process bias"); each side's median is over all of
// its processes' rounds, and each process's own median is printed beside it.
import { resolve } from 'node:path'
import { load, median, varyMark } from './proxy/load.ts'
import { agentBody, agentHeaders, chatAgentBody, withScreenshot } from './proxy/agent-body.ts'
import { cpuMicros, startMock, startPassthrough, startProxy, type Running } from './proxy/processes.ts'

const [baseline, candidate = '.'] = process.argv.slice(2)
if (!baseline) {
  console.error('usage: node --import jiti/register test/bench/ab.ts <baseline tree> [candidate tree]')
  process.exit(2)
}
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const agentCase = /^agent-(\d+)(-translated|-chat)?(-screenshot)?$/.exec(process.env.AB_CASE ?? '')
const chat = agentCase?.[2] === '-chat'
const streamed = process.env.AB_STREAM === '1'
if (streamed && agentCase) throw new Error('AB_STREAM is for the small request (agent cases stream already)')
const body = !agentCase ? { model: 'bench', messages: [{ role: 'user', content: 'hello' }], ...(streamed && { stream: true }) }
  : chat ? chatAgentBody(Number(agentCase[1]), 'bench')
  : agentBody(Number(agentCase[1]), agentCase[2] ? 'bench' : 'bench-claude')
if (agentCase?.[3]) {
  if (chat) throw new Error('-screenshot is for the messages agent body')
  Object.assign(body, withScreenshot(body))
}
const vary = process.env.AB_VARY
if (vary && !agentCase) throw new Error('AB_VARY needs an agent case (AB_CASE=agent-150...)')
if (vary === 'last') (body.messages as unknown[]).push({ role: 'user', content: `turn ${varyMark}` })
else if (vary === 'all') for (const message of body.messages as Array<{ content: unknown }>) message.content = typeof message.content === 'string' ? `${varyMark} ${message.content}` : [{ type: 'text', text: varyMark }, ...(message.content as unknown[])]
else if (vary) throw new Error('AB_VARY is last or all')
const path = agentCase && !chat ? '/v1/messages' : '/v1/chat/completions'
const connections = agentCase ? 16 : 32
const headers = agentCase && !chat ? agentHeaders() : agentCase || streamed ? { accept: 'text/event-stream' } : {}

const nodeArgs = (args = '') => args.split(' ').filter(Boolean)
const instances = Math.max(1, Number(process.env.AB_INSTANCES ?? 2))
const mock = await startMock(0, streamed)
const tree = { A: { name: 'A (baseline)', root: baseline, args: process.env.AB_NODE_ARGS_A, yaml: process.env.AB_YAML_A }, B: { name: 'B (candidate)', root: candidate, args: process.env.AB_NODE_ARGS_B, yaml: process.env.AB_YAML_B } }
/** [side, process]: the floor, then A and B alternating (A1 B1 A2 B2 ...). */
const sides: Array<[string, Running]> = [['floor', await startPassthrough(mock.url)]]
for (let i = 0; i < instances; i++) {
  for (const { name, root, args, yaml } of [tree.A, tree.B]) sides.push([name, await startProxy(mock.url, nodeArgs(args), resolve(root), yaml ?? process.env.BENCH_PROXY_YAML)])
}
try {
  // Warmed past the first seconds, which cost a fresh proxy about twice its steady CPU (JIT).
  for (const [, side] of sides) await load(`${side.url}${path}`, body, connections, agentCase ? 3 : 1, headers, !!vary)
  const results = new Map(['floor', tree.A.name, tree.B.name].map(name => [name, { cpu: [] as number[], rps: [] as number[] }]))
  const perProcess = new Map(sides.map(([, side]) => [side, [] as number[]]))
  for (let round = 0; round < rounds; round++) {
    for (const [name, side] of sides) {
      const before = cpuMicros(side.pid)
      const result = await load(`${side.url}${path}`, body, connections, seconds, headers, !!vary)
      const cpu = (cpuMicros(side.pid) - before) / result.requests
      results.get(name)!.cpu.push(cpu)
      results.get(name)!.rps.push(result.rps)
      perProcess.get(side)!.push(cpu)
    }
  }
  const floorRps = median(results.get('floor')!.rps)
  console.table([...results].map(([name, { cpu, rps }]) => {
    const processes = sides.filter(([side]) => side === name).map(([, side]) => Math.round(median(perProcess.get(side)!)))
    return { side: name, 'CPU µs/request by round': cpu.map(v => Math.round(v)).join(' '), 'median CPU': Math.round(median(cpu)), 'per process': processes.join(' / '), 'median rps': Math.round(median(rps)), 'ratio to floor': Number((median(rps) / floorRps).toFixed(2)) }
  }))
} finally {
  await Promise.all(sides.map(([, side]) => side.stop()))
  await mock.stop()
}
