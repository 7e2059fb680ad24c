// `npm run bench -- agent`: the agent-sized tables, with the peers beside this proxy in the same run
// (BENCH_PEERS=0 leaves the peers out; they install into temp folders on first use).
import { agentMemoryRow, agentRows, type Side } from './agent-scenarios.ts'
import { routerName, startCodingRouter } from './coding-router.ts'
import { gatewayName, startGateway } from './gateway.ts'
import { startMock, startPassthrough, startProxy, type Running } from './processes.ts'

type Rows = Array<Record<string, string | number>>

async function startPeers(mock: string): Promise<Array<Side & { cases: 'translated' | 'same' }>> {
  if (process.env.BENCH_PEERS === '0') return []
  const peers: Array<Side & { cases: 'translated' | 'same' }> = []
  try {
    peers.push({ name: routerName, run: await startCodingRouter(mock), cases: 'translated' })
  } catch (error) {
    console.log(`(${routerName} left out: ${(error as Error).message})`)
  }
  try {
    // Portkey relays messages to a messages upstream only (to an OpenAI one it answers "messages is not supported").
    const gateway = await startGateway(mock)
    peers.push({ name: gatewayName, run: gateway, cases: 'same', model: 'bench-claude', headers: { 'x-portkey-provider': 'anthropic', 'x-portkey-custom-host': `${mock}/v1` } })
  } catch (error) {
    console.log(`(${gatewayName} left out: ${(error as Error).message})`)
  }
  return peers
}

export async function benchAgent(): Promise<Array<[string, Rows]>> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 2)
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
  const mock = await startMock()
  const floor = await startPassthrough(mock.url)
  const proxy = await startProxy(mock.url, (process.env.BENCH_PROXY_NODE_ARGS ?? '').split(' ').filter(Boolean))
  const peers = await startPeers(mock.url)
  const running: Running[] = [proxy, floor, ...peers.map(p => p.run)]
  try {
    return [
      ['agent-sized requests: c=16 streams of 200 deltas, CPU per request, c=1 (floor = raw Node passthrough)', await agentRows(floor, proxy, peers, seconds, rounds)],
      ['agent-sized memory', await agentMemoryRow(200)],
    ]
  } finally {
    await Promise.all(running.map(r => r.stop()))
    await mock.stop()
  }
}
