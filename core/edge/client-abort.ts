import { EventEmitter } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { H3Event } from 'h3'

/** "The client has gone", as undici's signal: on Node an EventEmitter fed by the response's `close` (srvx's `req.signal` costs more). */
export type ClientSignal = AbortSignal | ClientGone

export class ClientGone extends EventEmitter {
  aborted = false
  abort(): void {
    if (this.aborted) return
    this.aborted = true
    this.emit('abort')
  }
}

/** The client's signal for this request, made once (in-process and non-Node requests: the request's own). */
export function clientSignal(event: H3Event): ClientSignal {
  const context = event.context
  if (context.clientSignal) return context.clientSignal
  const node = (event.req as { runtime?: { node?: { req?: IncomingMessage; res?: ServerResponse } } }).runtime?.node
  const req = node?.req
  const res = node?.res
  if (!req || !res) return (context.clientSignal = event.req.signal)
  const signal = new ClientGone()
  // Same rule as srvx: the response closed before it ended, or the request broke.
  const onClose = () => { if (req.errored || !res.writableEnded) signal.abort() }
  res.once('close', onClose)
  if (res.destroyed || req.aborted || req.errored || (req.destroyed && !req.complete)) onClose()
  return (context.clientSignal = signal)
}

/** Run `listener` once when the client goes; returns the unsubscribe. */
export function onClientGone(signal: ClientSignal, listener: () => void): () => void {
  if (signal instanceof ClientGone) {
    signal.once('abort', listener)
    return () => signal.removeListener('abort', listener)
  }
  signal.addEventListener('abort', listener, { once: true })
  return () => signal.removeEventListener('abort', listener)
}
