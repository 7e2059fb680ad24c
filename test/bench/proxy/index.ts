import { startMock, startPassthrough, startProxy } from './processes.ts'
import { gatewayName, gatewayRows, startGateway } from './gateway.ts'
import { concurrentStreamsRow, cpuRow, latencyRow, streamedThroughputRows, streamRows, throughputRows } from './scenarios.ts'

type Rows = Array<Record<string, string | number>>

/** The proxy against the physical floor (a raw Node passthrough), each its own process, same run. */
export async function benchProxy(withGateway = false): Promise<Array<[string, Rows]>> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 2)
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
  const mock = await startMock()
  const floor = await startPassthrough(mock.url)
  // BENCH_PROXY_NODE_ARGS='--cpu-prof --cpu-prof-dir=prof': profile the proxy process under the bench's load.
  const nodeArgs = (process.env.BENCH_PROXY_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const proxy = await startProxy(mock.url, nodeArgs)
  try {
    // Warm both (JIT, keep-alive pools) before measuring.
    await throughputRows(floor.url, proxy.url, 1, 1)
    return [
      ['throughput and latency, whole answers in one write (floor = raw Node passthrough)', await throughputRows(floor.url, proxy.url, seconds, rounds)],
      ...(process.env.BENCH_CHUNKED === '0' ? [] : await streamedTables(nodeArgs, seconds, rounds)),
      ['added latency at concurrency 1', await latencyRow(floor.url, proxy.url, 500)],
      ['streams: added time to first and last byte', await streamRows(floor.url, proxy.url, 200)],
      ['CPU', await cpuRow(floor, proxy, seconds, rounds)],
      ['memory', await concurrentStreamsRow(1000)],
      ...(withGateway ? [[`peer gateway: ${gatewayName} (same mock, same run)`, await peerRows(mock.url, floor.url, proxy, seconds, rounds)] as [string, Rows]] : []),
    ]
  } finally {
    await Promise.all([proxy.stop(), floor.stop(), mock.stop()])
  }
}

async function peerRows(mock: string, floor: string, proxy: Awaited<ReturnType<typeof startProxy>>, seconds: number, rounds: number): Promise<Rows> {
  const gateway = await startGateway(mock)
  try {
    return await gatewayRows(floor, proxy, gateway, seconds, rounds)
  } finally {
    await gateway.stop()
  }
}

/** The small requests again, streamed from a mock that writes each event on its own (BENCH_CHUNKED=0 leaves them out). */
async function streamedTables(nodeArgs: string[], seconds: number, rounds: number): Promise<Array<[string, Rows]>> {
  const mock = await startMock(0, true)
  const floor = await startPassthrough(mock.url)
  const proxy = await startProxy(mock.url, nodeArgs)
  try {
    await streamedThroughputRows(floor.url, proxy.url, 1, 1)
    return [
      ['throughput and latency, answers streamed token by token (the mock writes each of the 64 events on its own)', await streamedThroughputRows(floor.url, proxy.url, seconds, rounds)],
      ['streams token by token: added time to first and last byte at concurrency 1', await streamRows(floor.url, proxy.url, 200)],
    ]
  } finally {
    await Promise.all([proxy.stop(), floor.stop(), mock.stop()])
  }
}
