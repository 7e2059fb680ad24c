import type { JsonBody } from '../json/index.ts'
import type { Dispatcher } from 'undici'
import { Agent } from './undici.ts'
import { Readable } from 'node:stream'
import type { ClientSignal } from '../edge/client-abort.ts'

export interface UpstreamHttpRequest {
  url: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'
  headers: Record<string, string>
  /** JSON body, written once after every `before-upstream` hook (untouched: the client's bytes). */
  json?: JsonBody
  /** Raw body; a stream is sent as it arrives. */
  body?: string | Buffer | Readable
  /** Outbound proxy; '' or undefined = direct. */
  proxyUrl?: string
}

export interface UpstreamHttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Readable & { text(): Promise<string> }
}

/** No cap on connections per origin: agent streams hold sockets for minutes, and a cap queues everyone behind them. */
const agentOptions = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, pipelining: 1 }
const newAgent = () => new Agent(agentOptions)

/** Process-wide keep-alive pools, shared by every sender. */
let directAgent = newAgent()
const dispatchers = new Map<string, Dispatcher>()

/** Outbound proxy dispatchers by URL scheme (registered by the outbound-proxy plugin). */
export const proxyDispatcherFactories = new Map<string, (proxyUrl: string) => Dispatcher>()

export function dispatcherFor(proxyUrl?: string, connectMs?: number): Dispatcher {
  if (!proxyUrl) {
    if (!connectMs) return directAgent
    const key = `direct:${connectMs}`
    let agent = dispatchers.get(key)
    if (!agent) dispatchers.set(key, agent = new Agent({ ...agentOptions, connect: { timeout: connectMs } }))
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

export interface UpstreamTimeouts { connectMs?: number; firstByteMs?: number; idleMs?: number }

/** `https://host:port/path?query` -> [origin, path], no URL object per request. */
export function splitUrl(url: string): [string, string] {
  const slash = url.indexOf('/', url.indexOf('//') + 2)
  return slash === -1 ? [url, '/'] : [url.slice(0, slash), url.slice(slash)]
}

export function bodyOf(req: UpstreamHttpRequest): string | Buffer | Readable | undefined {
  return req.body ?? req.json?.bytes()
}

/** A written body this large goes as a stream read once (`sentOnce`); a smaller one costs less kept. */
const letGoBytes = 16 * 1024

/** undici keeps a body until its answer ends (1,000 translated 76 KB streams: ~100 MB): a large one goes as a stream read once. */
function sentOnce(req: UpstreamHttpRequest): { body: ReturnType<typeof bodyOf>; headers: UpstreamHttpRequest['headers'] } {
  const body = bodyOf(req)
  // Only a JsonBody (a hook's own `body` goes as the hook gave it).
  const json = req.body === undefined ? req.json : undefined
  if (!json || !Buffer.isBuffer(body)) return { body, headers: req.headers }
  const length = body.length
  if (length < letGoBytes || Object.keys(req.headers).some(name => name.toLowerCase() === 'content-length')) return { body, headers: req.headers }
  if (!json.asClientSent) json.forgetWritten()
  let bytes: Buffer | string | undefined = body
  const once = new Readable({
    read() {
      const chunk = bytes
      bytes = undefined
      this.push(chunk ?? null)
      if (chunk !== undefined) this.push(null)
    },
  })
  return { body: once, headers: { ...req.headers, 'content-length': String(length) } }
}

/** Send one upstream request; the body stays a stream. When `signal` fires, the upstream socket closes. */
export async function sendUpstream(req: UpstreamHttpRequest, signal?: ClientSignal, timeouts: UpstreamTimeouts = {}): Promise<UpstreamHttpResponse> {
  const [origin, path] = splitUrl(req.url)
  const { body, headers } = sentOnce(req)
  const res = await dispatcherFor(req.proxyUrl, timeouts.connectMs).request({
    origin,
    path,
    method: req.method,
    headers,
    body,
    signal: signal as AbortSignal | undefined,
    // headersTimeout: until the response starts; bodyTimeout: the longest silence inside it.
    headersTimeout: timeouts.firstByteMs,
    bodyTimeout: timeouts.idleMs,
  })
  return { status: res.statusCode, headers: res.headers, body: res.body }
}

/** Close every pooled socket (shutdown); later requests get a fresh pool. */
export async function closeUpstreamPools(force = false): Promise<void> {
  const closing = [directAgent, ...dispatchers.values()]
  directAgent = newAgent()
  dispatchers.clear()
  // `force`: what still runs is abandoned (a drain that ran out).
  await Promise.allSettled(closing.map(d => force ? d.destroy() : d.close()))
}
