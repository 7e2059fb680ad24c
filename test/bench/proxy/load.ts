import { benchKey } from './processes.ts'
import autocannon from 'autocannon'

export interface LoadResult { rps: number; p50: number; p99: number; errors: number; requests: number }

/**
 * One autocannon run: requests per second and latency percentiles (ms). `vary`: bodies differ from one
 * request to the next, by a number written wherever the body's JSON holds the string `{{n}}` (an agent's
 * next turn is the last one plus what is new; the proxy must not be measured on one body sent again and
 * again). 64 such bodies are taken in turn.
 */
export async function load(url: string, body: unknown, connections: number, seconds: number, headers: Record<string, string> = {}, vary = false): Promise<LoadResult> {
  const text = JSON.stringify(body)
  const parts = vary ? text.split(varyMark) : undefined
  const result = await autocannon({
    url, connections, duration: seconds, method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${benchKey}`, ...headers },
    body: text,
    // 64 bodies, built once and taken in turn: building each request's 150 KB anew cost the load
    // generator enough to slow the floor (which shares the machine) more than the proxy.
    ...(parts && parts.length > 1 && { requests: Array.from({ length: 64 }, (_, i) => ({ body: parts.join(String(i)) })) }),
  })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx + result.timeouts, requests: result.requests.total }
}

/** Where `load(..., vary)` writes its counter. */
export const varyMark = '{{n}}'

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
