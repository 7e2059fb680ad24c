import type { Dispatcher } from 'undici'
import { bodyOf, dispatcherFor, splitUrl, type UpstreamHttpRequest, type UpstreamHttpResponse, type UpstreamTimeouts } from './send.ts'
import { onClientGone, type ClientSignal } from '../edge/client-abort.ts'

export interface BufferedUpstreamResponse {
  status: number
  headers: UpstreamHttpResponse['headers']
  text: string
  headersAt: number // performance.now() when the headers arrived
}

/** Why a buffered exchange failed: before any response (connection, timeout, abort) or inside its body. */
export class UpstreamExchangeError extends Error {
  override name = 'UpstreamExchangeError'
  constructor(readonly stage: 'connect' | 'body', cause: Error) {
    super(cause.message, { cause })
  }
}

class ClientGoneError extends Error {
  override name = 'AbortError'
  constructor() { super('the client went away') }
}

/** One exchange read whole by a dispatch handler: no Readable and AsyncResource per call as `request()` builds. */
export function sendUpstreamBuffered(req: UpstreamHttpRequest, signal?: ClientSignal, timeouts: UpstreamTimeouts = {}): Promise<BufferedUpstreamResponse> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined
    let gone = false
    let status = 0
    let headers: UpstreamHttpResponse['headers'] = {}
    let headersAt = 0
    const chunks: Buffer[] = []
    let size = 0
    const unsubscribe = signal && !signal.aborted ? onClientGone(signal, () => { gone = true; controller?.abort(new ClientGoneError()) }) : undefined
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c
        if (gone || signal?.aborted) c.abort(new ClientGoneError())
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        if (statusCode < 200) return // 1xx come first; only the final answer counts
        status = statusCode
        headers = responseHeaders as UpstreamHttpResponse['headers']
        headersAt = performance.now()
      },
      onResponseData(_c, chunk) {
        chunks.push(chunk)
        size += chunk.length
      },
      onResponseEnd() {
        unsubscribe?.()
        const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8')
        resolve({ status, headers, text, headersAt })
      },
      onResponseError(_c, error) {
        unsubscribe?.()
        reject(new UpstreamExchangeError(status ? 'body' : 'connect', error))
      },
    }
    try {
      const [origin, path] = splitUrl(req.url)
      dispatcherFor(req.proxyUrl, timeouts.connectMs).dispatch({
        origin,
        path,
        method: req.method,
        headers: req.headers,
        body: bodyOf(req),
        headersTimeout: timeouts.firstByteMs,
        bodyTimeout: timeouts.idleMs,
      }, handler)
    } catch (error) {
      unsubscribe?.()
      reject(new UpstreamExchangeError('connect', error as Error))
    }
  })
}
