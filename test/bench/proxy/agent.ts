// `npm run bench -- agent`: the agent-sized tables, with the peers beside this proxy in the same run
// (BENCH_PEERS=0 leaves the peers out; they install into temp folders on first use), and the 150 KB cases
// again with a mock that writes its answer token by token (BENCH_CHUNKED=0 leaves those out).
import { agentCases, agentMemoryRow, agentRows, firstRequestCases, screenshotCase, type Side } from './agent-scenarios.ts'
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
  const nodeArgs = (process.env.BENCH_PROXY_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const mock = await startMock()
  const floor = await startPassthrough(mock.url)
  const proxy = await startProxy(mock.url, nodeArgs)
  const peers = await startPeers(mock.url)
  const running: Running[] = [proxy, floor, ...peers.map(p => p.run)]
  const tables: Array<[string, Rows]> = []
  try {
    tables.push(['agent-sized requests: c=16 streams of 200 deltas, CPU per request, c=1 (floor = raw Node passthrough)', await agentRows(floor, proxy, peers, seconds, rounds)])
  } finally {
    await Promise.all(running.map(r => r.stop()))
    await mock.stop()
  }
  // The same 150 KB cases with the answer written an event at a time, as upstreams send tokens
  // (BENCH_CHUNKED=0 leaves them out). Above, the mock writes a whole 200-delta answer at once, so the
  // floor reads it in one or two chunks and the proxy's fixed work per request is most of what differs;
  // here the floor, too, pays for 200 reads and writes per answer.
  if (process.env.BENCH_CHUNKED !== '0') {
    const chunkedMock = await startMock(0, true)
    const chunkedFloor = await startPassthrough(chunkedMock.url)
    const chunkedProxy = await startProxy(chunkedMock.url, nodeArgs)
    try {
      tables.push(['answered token by token (the mock writes each of the 200 events on its own; no peers): the 76 KB first request of a session, the 150 KB next turn (also with a screenshot in its history)', await agentRows(chunkedFloor, chunkedProxy, [], seconds, rounds, [...firstRequestCases, ...agentCases.filter(test => test.kb === 150), screenshotCase])])
    } finally {
      await Promise.all([chunkedProxy.stop(), chunkedFloor.stop()])
      await chunkedMock.stop()
    }
  }
  tables.push(['agent-sized memory', await agentMemoryRow(200)])
  return tables
}
