import { startMock, startPassthrough, startProxy } from './processes.ts'
import { gatewayName, gatewayRows, startGateway } from './gateway.ts'
import { concurrentStreamsRow, cpuRow, latencyRow, streamRows, throughputRows } from './scenarios.ts'

type Rows = Array<Record<string, string | number>>

/** The proxy against the physical floor (a raw Node passthrough), each its own process, same run. */
export async function benchProxy(withGateway = false): Promise<Array<[string, Rows]>> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 2)
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
  const mock = await startMock()
  const floor = await startPassthrough(mock.url)
  // BENCH_PROXY_NODE_ARGS='--cpu-prof --cpu-prof-dir=prof': profile the proxy process under the bench's load.
  const proxy = await startProxy(mock.url, (process.env.BENCH_PROXY_NODE_ARGS ?? '').split(' ').filter(Boolean))
  try {
    // Warm both (JIT, keep-alive pools) before measuring.
    await throughputRows(floor.url, proxy.url, 1, 1)
    return [
      ['throughput and latency (floor = raw Node passthrough)', await throughputRows(floor.url, proxy.url, seconds, rounds)],
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
