import type { ProxyErrorInfo, WireFormat } from '../canonical/codec.ts'
import type { ProxyConfig } from '../config/schema.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import { sendUpstream, sendUpstreamBuffered, UpstreamExchangeError, type UpstreamHttpRequest, type UpstreamTimeouts } from '../upstream/send.ts'
import type { ClientSignal } from '../edge/client-abort.ts'
import { describeConnectFailure } from '../upstream/connect-error.ts'
import { retryAfterSeconds } from './upstream-status.ts'
import type { Failure, UpstreamReply } from './outcome.ts'

export const upstreamTimeouts = (config: ProxyConfig): UpstreamTimeouts => {
  const limits = config.timeouts
  return { connectMs: limits['connect-seconds'] * 1000, firstByteMs: limits['first-byte-seconds'] * 1000, idleMs: limits['stream-idle-seconds'] * 1000 }
}

/** Send the request: streams stay streams; a non-stream answer is read whole by a lighter undici handler. */
export async function exchange(http: UpstreamHttpRequest, stream: boolean, signal: ClientSignal, timeouts: UpstreamTimeouts): Promise<UpstreamReply> {
  try {
    if (stream) {
      const { status, headers, body } = await sendUpstream(http, signal, timeouts)
      return { kind: 'stream', status, headers, body, headersAt: performance.now() }
    }
    const { status, headers, text, headersAt } = await sendUpstreamBuffered(http, signal, timeouts)
    return { kind: 'buffered', status, headers, text, headersAt }
  } catch (error) {
    if (error instanceof UpstreamExchangeError && error.stage === 'body') {
      return { kind: 'unreachable', status: 502, failure: { status: 502, message: `upstream body failed: ${(error as Error).message}`, type: 'server_error' } }
    }
    // The client learns which hop failed and why, never an internal address; the log gets the error as it came.
    const { message, detail } = describeConnectFailure(error as Error, http.proxyUrl)
    return { kind: 'unreachable', status: 0, failure: { status: 502, message, type: 'server_error' }, detail }
  }
}

/** An upstream error status (its body already free of the credential) -> what the client sees: the upstream's own error, decoded. */
export function statusFailure(kernel: ProxyKernel, reply: Exclude<UpstreamReply, { kind: 'unreachable' }>, format: WireFormat, text: string): Failure {
  const info = decodeUpstreamError(kernel, format, reply.status, text)
  return { ...info, retryAfter: retryAfterSeconds(reply.headers['retry-after']) }
}

/** Upstream error body (its own format) -> what the client sees. */
function decodeUpstreamError(kernel: ProxyKernel, format: WireFormat, status: number, text: string): ProxyErrorInfo {
  let body: unknown = text
  try { body = JSON.parse(text) } catch {}
  const codec = kernel.formats.get(format)
  const info = codec ? codec.error.decode(status, body) : { status, message: text.slice(0, 500) }
  // The upstream rejecting our credential is not the client's fault: report it as an upstream failure.
  const clientStatus = status === 401 || status === 403 ? 502 : status
  return { ...info, status: clientStatus, message: info.message || `upstream returned ${status}` }
}
