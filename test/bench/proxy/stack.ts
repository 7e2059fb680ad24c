// `npm run bench -- stack`: where the floor is for a proxy built like this one. The same 150 KB
// same-format agent request (c=16, streams of 200 deltas) through the raw passthrough floor, four bare
// forwarders that read the body whole first (Node server + Node client; Node server + undici; srvx + h3 +
// undici answering with a web stream, and with a Node stream as this proxy does: its stack doing nothing
// else), and this proxy. Interleaved rounds,
// medians of CPU per request and requests per second.
import { fileURLToPath } from 'node:url'
import { agentBody, agentHeaders } from './agent-body.ts'
import { load, median } from './load.ts'
import { cpuMicros, start, startMock, startPassthrough, startProxy, type Running } from './processes.ts'

const stackDir = fileURLToPath(new URL('./stack/', import.meta.url))
const bare = [
  ['Node server + Node client', 'node-node.mjs', {}],
  ['Node server + undici', 'node-undici.mjs', {}],
  ['Node server + undici dispatch', 'node-undici-dispatch.mjs', {}],
  ['srvx + h3 + undici, web stream', 'srvx-h3-undici.mjs', {}],
  ['srvx + h3 + undici, Node stream', 'srvx-h3-undici.mjs', { ANSWER: 'node' }],
] as const

export async function benchStack(): Promise<Array<[string, Array<Record<string, string | number>>]>> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 2)
  const rounds = Number(process.env.BENCH_ROUNDS ?? 8)
  const mock = await startMock()
  const sides: Array<[string, Running]> = [['floor (raw passthrough, piped)', await startPassthrough(mock.url)]]
  try {
    for (const [name, file, env] of bare) sides.push([name, await start([`${stackDir}${file}`], { UPSTREAM: mock.url, ...env })])
    sides.push(['this proxy', await startProxy(mock.url)])
    const body = agentBody(150, 'bench-claude')
    const url = (side: Running) => `${side.url}/v1/messages`
    // Warm every side (JIT, pools) longer than a round: the proxy's first seconds cost twice its steady state.
    for (const [, side] of sides) await load(url(side), body, 16, 3, agentHeaders())
    const runs = new Map(sides.map(([name]) => [name, { cpu: [] as number[], rps: [] as number[] }]))
    for (let round = 0; round < rounds; round++) {
      for (const [name, side] of sides) {
        const before = cpuMicros(side.pid)
        const result = await load(url(side), body, 16, seconds, agentHeaders())
        runs.get(name)!.cpu.push((cpuMicros(side.pid) - before) / Math.max(1, result.requests))
        runs.get(name)!.rps.push(result.rps)
      }
    }
    const floor = runs.get(sides[0]![0])!
    const floorCpu = median(floor.cpu)
    const floorRps = median(floor.rps)
    return [['the floor for this architecture: 150 KB same format, c=16 (CPU µs per request)', sides.map(([name]) => {
      const { cpu, rps } = runs.get(name)!
      return { side: name, 'CPU µs/request': Math.round(median(cpu)), 'CPU / floor': Number((median(cpu) / floorCpu).toFixed(2)), rps: Math.round(median(rps)), 'ratio to floor': Number((median(rps) / floorRps).toFixed(2)) }
    })]]
  } finally {
    await Promise.all(sides.map(([, side]) => side.stop()))
    await mock.stop()
  }
}
