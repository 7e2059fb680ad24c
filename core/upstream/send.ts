import type { JsonBody } from '../json/index.ts'
import type { Dispatcher } from 'undici'
import { Agent } from './undici.ts'
import { Readable } from 'node:stream'
import { onClientGone, type ClientSignal } from '../edge/client-abort.ts'

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

export interface UpstreamHttpResponse { status: number; headers: Record<string, string | string[] | undefined>; body: Readable & { text(): Promise<string> } }

/** No cap on connections per origin: agent streams hold sockets for minutes, and a cap queues everyone behind them. */
const agentOptions = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, pipelining: 1 }

/** Process-wide keep-alive pools, shared by every sender: by outbound proxy URL, or by connect timeout (a number). */
let directAgent = new Agent(agentOptions)
const dispatchers = new Map<string | number, Dispatcher>()

/** Outbound proxy dispatchers by URL scheme (registered by the outbound-proxy plugin). */
export const proxyDispatcherFactories = new Map<string, (proxyUrl: string) => Dispatcher>()

function dispatcherFor(proxyUrl?: string, connectMs?: number): Dispatcher {
  if (!proxyUrl && !connectMs) return directAgent
  const key = proxyUrl || connectMs!
  let dispatcher = dispatchers.get(key)
  if (dispatcher) return dispatcher
  if (proxyUrl) {
    const scheme = proxyUrl.slice(0, proxyUrl.indexOf(':'))
    const factory = proxyDispatcherFactories.get(scheme)
    if (!factory) throw new Error(`unsupported proxy scheme: ${scheme}`)
    dispatcher = factory(proxyUrl)
  } else dispatcher = new Agent({ ...agentOptions, connect: { timeout: connectMs } })
  dispatchers.set(key, dispatcher)
  return dispatcher
}

export interface UpstreamTimeouts { connectMs?: number; firstByteMs?: number; idleMs?: number }

/** undici's options for `req`; `https://host:port/path?query` is cut into origin and path without a URL object. */
function dispatchOptions(req: UpstreamHttpRequest, timeouts: UpstreamTimeouts, signal?: ClientSignal) {
  const { url } = req
  const slash = url.indexOf('/', url.indexOf('//') + 2)
  return {
    origin: slash === -1 ? url : url.slice(0, slash),
    path: slash === -1 ? '/' : url.slice(slash),
    method: req.method,
    headers: req.headers,
    body: req.body ?? req.json?.bytes(),
    signal: signal as AbortSignal | undefined,
    // headersTimeout: until the response starts; bodyTimeout: the longest silence inside it.
    headersTimeout: timeouts.firstByteMs,
    bodyTimeout: timeouts.idleMs,
  }
}

/** undici keeps a body until its answer ends (1,000 76 KB streams: ~100 MB): a written JsonBody (not a hook's body) of 16 KB+ goes as a stream read once. */
function letGoOfBody(req: UpstreamHttpRequest, options: ReturnType<typeof dispatchOptions>): void {
  const { body } = options
  if (req.body !== undefined || !req.json || !Buffer.isBuffer(body) || body.length < 16 * 1024) return
  if (Object.keys(req.headers).some(name => name.toLowerCase() === 'content-length')) return
  if (!req.json.asClientSent) req.json.forgetWritten()
  // The stream's buffer is the one hold on the bytes, and gives them up as undici reads them.
  const once = new Readable({ read() {} })
  once.push(body)
  once.push(null)
  options.body = once
  options.headers = { ...req.headers, 'content-length': String(body.length) }
}

/** Send one upstream request; the body stays a stream. When `signal` fires, the upstream socket closes. */
export async function sendUpstream(req: UpstreamHttpRequest, signal?: ClientSignal, timeouts: UpstreamTimeouts = {}): Promise<UpstreamHttpResponse> {
  const options = dispatchOptions(req, timeouts, signal)
  letGoOfBody(req, options)
  const res = await dispatcherFor(req.proxyUrl, timeouts.connectMs).request(options)
  return { status: res.statusCode, headers: res.headers, body: res.body }
}

/** `headersAt`: performance.now() when the headers arrived. */
export interface BufferedUpstreamResponse { status: number; headers: UpstreamHttpResponse['headers']; text: string; headersAt: number }

/** Why a buffered exchange failed: before any response (connection, timeout, abort) or inside its body. */
export class UpstreamExchangeError extends Error {
  override name = 'UpstreamExchangeError'
  constructor(readonly stage: 'connect' | 'body', cause: Error) {
    super(cause.message, { cause })
  }
}

const clientGone = () => Object.assign(new Error('the client went away'), { name: 'AbortError' })

/** One exchange read whole by a dispatch handler: no Readable and AsyncResource per call as `request()` builds. */
export function sendUpstreamBuffered(req: UpstreamHttpRequest, signal?: ClientSignal, timeouts: UpstreamTimeouts = {}): Promise<BufferedUpstreamResponse> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined
    let status = 0
    let headers: UpstreamHttpResponse['headers'] = {}
    let headersAt = 0
    const chunks: Buffer[] = []
    const unsubscribe = signal && !signal.aborted ? onClientGone(signal, () => controller?.abort(clientGone())) : undefined
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c
        if (signal?.aborted) c.abort(clientGone())
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        if (statusCode < 200) return // 1xx come first; only the final answer counts
        status = statusCode
        headers = responseHeaders as UpstreamHttpResponse['headers']
        headersAt = performance.now()
      },
      onResponseData(_c, chunk) { chunks.push(chunk) },
      onResponseEnd() {
        unsubscribe?.()
        const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')
        resolve({ status, headers, text, headersAt })
      },
      onResponseError(_c, error) {
        unsubscribe?.()
        reject(new UpstreamExchangeError(status ? 'body' : 'connect', error))
      },
    }
    try {
      dispatcherFor(req.proxyUrl, timeouts.connectMs).dispatch(dispatchOptions(req, timeouts), handler)
    } catch (error) {
      unsubscribe?.()
      reject(new UpstreamExchangeError('connect', error as Error))
    }
  })
}

/** Close every pooled socket (shutdown); later requests get a fresh pool. */
export async function closeUpstreamPools(force = false): Promise<void> {
  const closing = [directAgent, ...dispatchers.values()]
  directAgent = new Agent(agentOptions)
  dispatchers.clear()
  // `force`: what still runs is abandoned (a drain that ran out).
  await Promise.allSettled(closing.map(d => force ? d.destroy() : d.close()))
}
