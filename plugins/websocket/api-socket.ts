import { isUtf8 } from 'node:buffer'
import { defineWebSocketHandler } from 'h3'
import type { ProxyKernel } from 'model-proxy'
import { jsonDeeperThan, maxJsonDepth } from 'model-proxy/kit/guards'
import { bridgeRequest } from './bridge.ts'
import { authorizeUpgrade, socketPeer, upgradeRequired } from './upgrade-auth.ts'
import { resolveEnvelopePath } from './envelope-path.ts'
import { socketClosed, socketSignal, type Peer } from './peer-context.ts'

const parse = (text: string | undefined) => {
  try { return JSON.parse(text ?? '') } catch { return text }
}

/**
 * One envelope `{id, path, body}` -> replies tagged with the same id: `event` messages for a stream
 * then `done`, or one `response`; failures as `error` with the status and the endpoint's error body.
 */
async function serveEnvelope(kernel: ProxyKernel, peer: Peer, text: string): Promise<void> {
  if (jsonDeeperThan(text)) return peer.send(JSON.stringify({ id: null, type: 'error', status: 400, body: { error: { message: `message is nested more than ${maxJsonDepth} levels deep`, type: 'invalid_request_error', code: 'invalid_json' } } }))
  const envelope = parse(text) as { id?: unknown; path?: unknown; body?: unknown } | string
  const id = typeof envelope === 'object' && envelope ? envelope.id ?? null : null
  const send = (message: Record<string, unknown>) => peer.send(JSON.stringify({ id, ...message }))
  if (typeof envelope !== 'object' || !envelope || typeof envelope.path !== 'string' || !envelope.body || typeof envelope.body !== 'object') {
    return send({ type: 'error', status: 400, body: { error: { message: 'expected {"id", "path", "body"}', type: 'invalid_request_error' } } })
  }
  const path = resolveEnvelopePath(envelope.path)
  if (!path) return send({ type: 'error', status: 404, body: { error: { message: `not a client endpoint: ${envelope.path.slice(0, 200)}`, type: 'invalid_request_error', code: 'not_found' } } })
  // Every call is checked as the socket's client: an open socket (ws-auth false) opens no credentials.
  const signal = socketSignal(peer)
  if (signal.aborted) return
  const reply = await bridgeRequest(kernel, path, envelope.body, peer.context.peer!, signal, peer.id)
  const headers = reply.headers && { headers: reply.headers }
  if (!reply.events) return send({ type: reply.status < 400 ? 'response' : 'error', status: reply.status, body: parse(reply.body), ...headers })
  for await (const event of reply.events) if (!signal.aborted) send({ type: 'event', ...(event.event && { event: event.event }), data: parse(event.data) })
  send({ type: 'done', status: reply.status, ...headers })
}

/**
 * `GET /v1/ws`: every client endpoint over one socket. The upgrade needs a client key only with
 * `ws-auth: true` (spec); model calls need one (or the no-keys loopback mode) either way.
 */
export function addApiSocket(kernel: ProxyKernel): void {
  kernel.app.get('/v1/ws', defineWebSocketHandler({
    upgrade(request) {
      const peer = socketPeer(request)
      if (kernel.config['ws-auth']) authorizeUpgrade(kernel, peer)
      return { context: { peer } }
    },
    message(peer, message) {
      // A binary frame is read as text: bytes that are not UTF-8 are refused as an HTTP body would be.
      if (!isUtf8(message.uint8Array())) {
        peer.send(JSON.stringify({ id: null, type: 'error', status: 400, body: { error: { message: 'message is not valid UTF-8', type: 'invalid_request_error', code: 'invalid_json' } } }))
        return
      }
      serveEnvelope(kernel, peer, message.text()).catch((error) => {
        peer.send(JSON.stringify({ id: null, type: 'error', status: 500, body: { error: { message: (error as Error).message, type: 'server_error' } } }))
      })
    },
    close(peer) { socketClosed(peer) },
  }, upgradeRequired(kernel)))
}
