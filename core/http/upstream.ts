import { clientBytesOf } from './lazy-json.ts'
import { jsonBytes } from './json-bytes.ts'
import { JsonPartCache } from './json-part-cache.ts'
import type { RawStrings } from './raw-strings.ts'
import { Agent, type Dispatcher } from 'undici'
import { Readable } from 'node:stream'
import type { ClientSignal } from './client-abort.ts'

export interface UpstreamHttpRequest {
  url: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'
  headers: Record<string, string>
  /**
   * JSON body, serialized once after every `before-upstream` hook has had its say. A hook that changes
   * it assigns a new object (never edits in place: it may be the client's own parsed body).
   */
  json?: Record<string, unknown>
  /** `json` as the client sent it, byte for byte: sent instead of re-serializing while `json` is still that object. */
  jsonText?: { of: Record<string, unknown>; text: string | Buffer }
  /**
   * Long strings of the client's body with their spelling in its bytes: serializing `json` copies those
   * bytes for them instead of escaping them again (core/http/raw-strings.ts). Matched by value, so a
   * string changed on the way is simply written anew.
   */
  rawStrings?: RawStrings
  /**
   * Whose request this is (the client key): parts of the body written for earlier requests of the same
   * scope may be copied from the part cache (core/http/json-part-cache.ts), never another scope's.
   */
  partScope?: string
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

/**
 * No cap on connections per origin: a long agent stream holds its socket for minutes, and a cap would
 * queue every request past it behind them (256 did: 1,000 streams ran in four waves). Idle sockets
 * close after keepAliveTimeout.
 */
const agentOptions = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, pipelining: 1 }
const newAgent = () => new Agent(agentOptions)

/** Process-wide pools (one module graph per process: core/module-graph.ts), one keep-alive pool for every sender. */
let directAgent = newAgent()
const dispatchers = new Map<string, Dispatcher>()

/** Outbound proxy dispatchers by URL scheme (registered by the outbound-proxy plugin). */
export const proxyDispatcherFactories = new Map<string, (proxyUrl: string) => Dispatcher>()

export function dispatcherFor(proxyUrl?: string, connectMs?: number): Dispatcher {
  if (!proxyUrl) {
    if (!connectMs) return directAgent
    // One pool per connect timeout (in practice: one per process).
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

/** `https://host:port/path?query` -> [origin, path]: undici's dispatcher takes them apart, no URL object per request. */
export function splitUrl(url: string): [string, string] {
  const slash = url.indexOf('/', url.indexOf('//') + 2)
  return slash === -1 ? [url, '/'] : [url.slice(0, slash), url.slice(slash)]
}

/** Parts of recent upstream bodies (an agent's tools and history come again every turn): one per process. */
export const upstreamPartCache = new JsonPartCache()

export function bodyOf(req: UpstreamHttpRequest): string | Buffer | Readable | undefined {
  if (req.body !== undefined) return req.body
  if (!req.json) return undefined
  if (req.jsonText?.of === req.json) return req.jsonText.text
  const bytes = clientBytesOf(req.json)
  if (bytes) return bytes
  // As bytes built from small parts (json-bytes.ts: one big string costs ten times as much here), kept:
  // an observer of the request as sent (the flight recorder) reads them instead of serializing again.
  req.jsonText = { of: req.json, text: jsonBytes(req.json, req.rawStrings, upstreamPartCache, req.partScope) }
  return req.jsonText.text
}

/** A written-out body this large is handed over to be read once (below): a smaller one costs less kept. */
const letGoBytes = 16 * 1024

/**
 * undici keeps a request's body until its answer ends: minutes for an agent's stream, a whole written-out
 * body per stream (1,000 translated 76 KB streams kept ~100 MB). Handed over as a stream read once, the
 * bytes are let go when written; the explicit content-length keeps the wire the same (undici writes that
 * header itself, in the same place, for bytes). The client's own bytes are kept by the request anyway:
 * they go as they are.
 */
function sentOnce(req: UpstreamHttpRequest): { body: ReturnType<typeof bodyOf>; headers: UpstreamHttpRequest['headers'] } {
  const before = req.jsonText
  const body = bodyOf(req)
  // Written out just now (bodyOf notes what it writes in a new jsonText).
  const written = req.jsonText !== before && req.jsonText?.text === body
  if (!written || (typeof body !== 'string' && !Buffer.isBuffer(body))) return { body, headers: req.headers }
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length
  if (length < letGoBytes || Object.keys(req.headers).some(name => name.toLowerCase() === 'content-length')) return { body, headers: req.headers }
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
    // undici: headersTimeout = until the response starts; bodyTimeout = the longest silence inside it.
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
  // `force`: what still runs is abandoned (a drain that ran out); otherwise in-flight calls finish first.
  await Promise.allSettled(closing.map(d => force ? d.destroy() : d.close()))
}
