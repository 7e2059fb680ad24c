// A/B of two trees of this project, each started as `proxy start` on the same bench mock, interleaved
// with the floor: CPU µs per request (from /proc) and requests per second, round by round.
//   git worktree add /tmp/base HEAD~1 && ln -s "$PWD/node_modules" /tmp/base/node_modules
//   node --import jiti/register test/bench/ab.ts /tmp/base [.]      (BENCH_ROUNDS, BENCH_SECONDS)
// AB_CASE=agent-80 / agent-150 (same format, messages -> beta), agent-80-translated (messages -> compat) or
// agent-80-chat (same format, chat -> compat):
// the agent-sized requests of `npm run bench -- agent` at c=16 instead of a small chat request at c=32.
// AB_YAML_A / AB_YAML_B: config added to one side only, e.g. one tree twice, recorder off against on:
//   AB_YAML_B='recorder: { mode: all }' node --import jiti/register test/bench/ab.ts . .
// AB_NODE_ARGS_A / AB_NODE_ARGS_B: Node flags for one side (AB_NODE_ARGS_B='--max-semi-space-size=64').
import { resolve } from 'node:path'
import { load, median } from './proxy/load.ts'
import { agentBody, agentHeaders, chatAgentBody } from './proxy/agent-body.ts'
import { cpuMicros, startMock, startPassthrough, startProxy, type Running } from './proxy/processes.ts'

const [baseline, candidate = '.'] = process.argv.slice(2)
if (!baseline) {
  console.error('usage: node --import jiti/register test/bench/ab.ts <baseline tree> [candidate tree]')
  process.exit(2)
}
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const agentCase = /^agent-(\d+)(-translated|-chat)?$/.exec(process.env.AB_CASE ?? '')
const chat = agentCase?.[2] === '-chat'
const body = !agentCase ? { model: 'bench', messages: [{ role: 'user', content: 'hello' }] }
  : chat ? chatAgentBody(Number(agentCase[1]), 'bench')
  : agentBody(Number(agentCase[1]), agentCase[2] ? 'bench' : 'bench-claude')
const path = agentCase && !chat ? '/v1/messages' : '/v1/chat/completions'
const connections = agentCase ? 16 : 32
const headers = agentCase && !chat ? agentHeaders() : agentCase ? { accept: 'text/event-stream' } : {}

const nodeArgs = (args = '') => args.split(' ').filter(Boolean)
const mock = await startMock()
const sides: Array<[string, Running]> = [
  ['floor', await startPassthrough(mock.url)],
  ['A (baseline)', await startProxy(mock.url, nodeArgs(process.env.AB_NODE_ARGS_A), resolve(baseline), process.env.AB_YAML_A ?? process.env.BENCH_PROXY_YAML)],
  ['B (candidate)', await startProxy(mock.url, nodeArgs(process.env.AB_NODE_ARGS_B), resolve(candidate), process.env.AB_YAML_B ?? process.env.BENCH_PROXY_YAML)],
]
try {
  for (const [, side] of sides) await load(`${side.url}${path}`, body, connections, 1, headers)
  const results = new Map(sides.map(([name]) => [name, { cpu: [] as number[], rps: [] as number[] }]))
  for (let round = 0; round < rounds; round++) {
    for (const [name, side] of sides) {
      const before = cpuMicros(side.pid)
      const result = await load(`${side.url}${path}`, body, connections, seconds, headers)
      results.get(name)!.cpu.push((cpuMicros(side.pid) - before) / result.requests)
      results.get(name)!.rps.push(result.rps)
    }
  }
  const floorRps = median(results.get('floor')!.rps)
  console.table(sides.map(([name]) => {
    const { cpu, rps } = results.get(name)!
    return { side: name, 'CPU µs/request by round': cpu.map(v => Math.round(v)).join(' '), 'median CPU': Math.round(median(cpu)), 'median rps': Math.round(median(rps)), 'ratio to floor': Number((median(rps) / floorRps).toFixed(2)) }
  }))
} finally {
  await Promise.all(sides.map(([, side]) => side.stop()))
  await mock.stop()
}
