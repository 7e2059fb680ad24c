import { Agent, request, type Dispatcher } from 'undici'
import type { Readable } from 'node:stream'

export interface UpstreamHttpRequest {
  url: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'
  headers: Record<string, string>
  /** JSON body, serialized once after every `before-upstream` hook has had its say. */
  json?: Record<string, unknown>
  /** Raw body; a stream is sent as it arrives (the partner proxy passes client bodies through). */
  body?: string | Buffer | Readable
  /** Outbound proxy for this request; '' or undefined = direct. */
  proxyUrl?: string
}

export interface UpstreamHttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Readable & { text(): Promise<string> }
}

const newAgent = () => new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connections: 256, pipelining: 1 })

/**
 * Process-wide pools. Plugins are loaded through jiti and may get their own copy of this module (and a
 * test runner another), so the state lives on globalThis: one keep-alive pool per process, whichever
 * copy sends.
 */
const shared = ((globalThis as Record<symbol, unknown>)[Symbol.for('model-proxy.upstream')] ??= {
  directAgent: newAgent(),
  dispatchers: new Map<string, Dispatcher>(),
  factories: new Map<string, (proxyUrl: string) => Dispatcher>(),
}) as { directAgent: Dispatcher; dispatchers: Map<string, Dispatcher>; factories: Map<string, (proxyUrl: string) => Dispatcher> }
const dispatchers = shared.dispatchers

/** Outbound proxy dispatchers by URL scheme (registered by the outbound-proxy plugin). */
export const proxyDispatcherFactories = shared.factories

function dispatcherFor(proxyUrl?: string, connectMs?: number): Dispatcher {
  if (!proxyUrl) {
    if (!connectMs) return shared.directAgent
    // One pool per connect timeout (in practice: one per process).
    const key = `direct:${connectMs}`
    let agent = dispatchers.get(key)
    if (!agent) dispatchers.set(key, agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connections: 256, pipelining: 1, connect: { timeout: connectMs } }))
    return agent
  }
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
export interface UpstreamTimeouts { connectMs?: number; firstByteMs?: number; idleMs?: number }

export async function sendUpstream(req: UpstreamHttpRequest, signal?: AbortSignal, timeouts: UpstreamTimeouts = {}): Promise<UpstreamHttpResponse> {
  const res = await request(req.url, {
    method: req.method,
    headers: req.headers,
    body: req.body ?? (req.json ? JSON.stringify(req.json) : undefined),
    signal,
    dispatcher: dispatcherFor(req.proxyUrl, timeouts.connectMs),
    // undici: headersTimeout = until the response starts; bodyTimeout = the longest silence inside it.
    headersTimeout: timeouts.firstByteMs,
    bodyTimeout: timeouts.idleMs,
  })
  return { status: res.statusCode, headers: res.headers, body: res.body }
}

/** Close every pooled socket (shutdown); later requests get a fresh pool. */
export async function closeUpstreamPools(): Promise<void> {
  const closing = [shared.directAgent, ...dispatchers.values()]
  shared.directAgent = newAgent()
  dispatchers.clear()
  await Promise.allSettled(closing.map(d => d.close()))
}
