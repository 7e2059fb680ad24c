import { benchKey } from './processes.ts'
import autocannon from 'autocannon'

export interface LoadResult { rps: number; p50: number; p99: number; errors: number; requests: number }

/** One autocannon run: requests per second and latency percentiles (ms). */
export async function load(url: string, body: unknown, connections: number, seconds: number, headers: Record<string, string> = {}): Promise<LoadResult> {
  const result = await autocannon({
    url, connections, duration: seconds, method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}`, ...headers },
    body: JSON.stringify(body),
  })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx + result.timeouts, requests: result.requests.total }
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
