import type { Dispatcher } from 'undici'
import { dispatcherFor, dispatchOptions, type UpstreamHttpRequest, type UpstreamHttpResponse, type UpstreamTimeouts } from './send.ts'
import { onClientGone, type ClientSignal } from '../edge/client-abort.ts'

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
