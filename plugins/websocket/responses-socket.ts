import { isUtf8 } from 'node:buffer'
import { defineWebSocketHandler } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { jsonDeeperThan } from 'model-proxy/kit/guards'
import { bridgeRequest, type BridgeReply } from './bridge.ts'
import { authorizeUpgrade, socketPeer, upgradeRequired } from './upgrade-auth.ts'
import { expandRequest, linkAfter, warmupEvents } from './response-chain.ts'
import { socketClosed, socketSignal, type Peer } from './peer-context.ts'

/** The error reply to a request the HTTP app refused (or answered with no stream). */
function sendRefusal(peer: Peer, reply: BridgeReply): void {
  let error: unknown = reply.body
  try { error = JSON.parse(reply.body ?? '').error } catch {}
  peer.send(JSON.stringify({ type: 'error', status: reply.status, error, ...(reply.headers && { headers: reply.headers }) }))
}

/**
 * A message that cannot be read (not UTF-8, too deep, not JSON) goes to the endpoint as sent: its 400 and
 * its accounting are those of the same bytes POSTed over HTTP.
 */
async function serveUnreadable(kernel: ProxyKernel, peer: Peer, bytes: Uint8Array): Promise<void> {
  sendRefusal(peer, await bridgeRequest(kernel, '/v1/responses', bytes, peer.context.peer!, socketSignal(peer), peer.id))
}

/** One `response.create` message -> the responses stream events, each as a JSON text message. */
async function serveCreate(kernel: ProxyKernel, peer: Peer, bytes: Uint8Array): Promise<void> {
  if (!isUtf8(bytes)) return serveUnreadable(kernel, peer, bytes)
  const text = Buffer.from(bytes).toString('utf8')
  if (jsonDeeperThan(text)) return serveUnreadable(kernel, peer, bytes)
  let message: Record<string, unknown>
  try {
    message = JSON.parse(text)
  } catch {
    return serveUnreadable(kernel, peer, bytes)
  }
  if (!message || typeof message !== 'object' || Array.isArray(message) || message.type !== 'response.create') {
    const type = message && typeof message === 'object' ? (message as { type?: unknown }).type : undefined
    peer.send(JSON.stringify({ type: 'error', status: 400, error: { type: 'invalid_request_error', message: `unsupported message type ${JSON.stringify(type ?? null)}: send a {"type": "response.create"} object` } }))
    return
  }
  const { type: _type, response: nested, ...rest } = message
  // Accept both `{type, ...request}` and `{type, response: {...request}}`.
  const sent = (nested && typeof nested === 'object' ? nested : rest) as Record<string, unknown>
  const expanded = expandRequest(sent, peer.context.last)
  peer.context.last = undefined
  if ('error' in expanded) {
    peer.send(JSON.stringify({ type: 'error', ...expanded.error }))
    return
  }
  const body: Record<string, unknown> = { ...expanded.body, stream: true }
  if (sent.generate === false) {
    const events = warmupEvents(body.model)
    peer.context.last = linkAfter(body, events.at(-1)!.response as Record<string, unknown>)
    for (const event of events) peer.send(JSON.stringify(event))
    return
  }
  const signal = socketSignal(peer)
  const reply = await bridgeRequest(kernel, '/v1/responses', body, peer.context.peer!, signal, peer.id)
  if (!reply.events) return sendRefusal(peer, reply)
  for await (const event of reply.events) {
    if (signal.aborted) break
    if (event.event === 'response.completed' || event.data.includes('"response.completed"')) {
      try {
        const parsed = JSON.parse(event.data)
        if (parsed.type === 'response.completed') peer.context.last = linkAfter(body, parsed.response ?? {})
      } catch {}
    }
    peer.send(event.data)
  }
}

/** `GET /v1/responses` with `Upgrade: websocket` (spec Events 4), client key required. */
export function addResponsesSocket(kernel: ProxyKernel): void {
  kernel.app.get('/v1/responses', defineWebSocketHandler({
    upgrade(request) {
      const peer = socketPeer(request)
      authorizeUpgrade(kernel, peer)
      return { context: { peer } }
    },
    message(peer, message) {
      // One request at a time per socket, in the order sent.
      const bytes = message.uint8Array()
      const queue = peer.context.queue ?? Promise.resolve()
      // A message still queued when the socket closes is never sent upstream.
      peer.context.queue = queue.then(() => socketSignal(peer).aborted ? undefined : serveCreate(kernel, peer, bytes)).catch((error) => {
        peer.send(JSON.stringify({ type: 'error', status: 500, error: { type: 'server_error', message: (error as Error).message } }))
      })
    },
    close(peer) { socketClosed(peer) },
  }, upgradeRequired(kernel)))
}
