import { Agent, request, type Dispatcher } from 'undici'
import type { Readable } from 'node:stream'

export interface UpstreamHttpRequest {
  url: string
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  headers: Record<string, string>
  /** JSON body, serialized once after every `before-upstream` hook has had its say. */
  json?: Record<string, unknown>
  body?: string | Buffer
  /** Outbound proxy for this request; '' or undefined = direct. */
  proxyUrl?: string
}

export interface UpstreamHttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Readable & { text(): Promise<string> }
}

/** One keep-alive pool per process for direct connections: the hot path never opens a socket per request. */
const newAgent = () => new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connections: 256, pipelining: 1 })
let directAgent = newAgent()
const dispatchers = new Map<string, Dispatcher>()

/** Hook for outbound proxies (plugins register a factory per URL scheme). */
export const proxyDispatcherFactories = new Map<string, (proxyUrl: string) => Dispatcher>()

function dispatcherFor(proxyUrl?: string): Dispatcher {
  if (!proxyUrl) return directAgent
  let dispatcher = dispatchers.get(proxyUrl)
  if (!dispatcher) {
    const scheme = proxyUrl.slice(0, proxyUrl.indexOf(':'))
    const factory = proxyDispatcherFactories.get(scheme)
    if (!factory) throw new Error(`unsupported proxy scheme: ${scheme}`)
    dispatcher = factory(proxyUrl)
    dispatchers.set(proxyUrl, dispatcher)
  }
  return dispatcher
}

/** Send one upstream request; the body stays a stream. Aborting `signal` closes the upstream socket. */
export async function sendUpstream(req: UpstreamHttpRequest, signal?: AbortSignal): Promise<UpstreamHttpResponse> {
  const res = await request(req.url, {
    method: req.method,
    headers: req.headers,
    body: req.body ?? (req.json ? JSON.stringify(req.json) : undefined),
    signal,
    dispatcher: dispatcherFor(req.proxyUrl),
  })
  return { status: res.statusCode, headers: res.headers, body: res.body }
}

/** Close every pooled socket (shutdown); later requests get a fresh pool. */
export async function closeUpstreamPools(): Promise<void> {
  const closing = [directAgent, ...dispatchers.values()]
  directAgent = newAgent()
  dispatchers.clear()
  await Promise.allSettled(closing.map(d => d.close()))
}
