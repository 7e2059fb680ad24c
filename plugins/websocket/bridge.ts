import type { ProxyKernel } from 'model-proxy'
import { trustedClient, type SocketPeer } from 'model-proxy/kit/access'
import { createSseParser, Utf8Decoder } from 'model-proxy/kit/http'

/** Bytes a socket could not read go as sent, so the endpoint refuses them as it refuses an HTTP body. */
const raw = (body: unknown): BodyInit => body instanceof Uint8Array ? new Uint8Array(body) : typeof body === 'string' ? body : JSON.stringify(body)

/** Names the WebSocket connection a bridged request came over. */
export const wsConnectionHeader = 'x-proxy-ws-connection'

export interface BridgeReply {
  status: number
  /** SSE answers: each event's data, in order. */
  events?: AsyncGenerator<{ event?: string; data: string }>
  /** Non-stream answers: the body text. */
  body?: string
}

/**
 * Run a client-endpoint request through the proxy's own HTTP app on behalf of a socket's client: the
 * endpoint checks that client's key (and address, in the no-keys mode) as for an HTTP request, so
 * WebSocket endpoints reuse authorization, routing, translation and errors exactly as HTTP clients get them.
 */
export async function bridgeRequest(kernel: ProxyKernel, path: string, body: unknown, peer: SocketPeer, signal?: AbortSignal, connection?: string): Promise<BridgeReply> {
  // The socket is one conversation: routing keeps it on one credential (plugins/routing/session-key.ts).
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(connection && { [wsConnectionHeader]: connection }) }
  const request = new Request(`http://proxy.internal${path}`, { method: 'POST', headers, body: raw(body), signal })
  trustedClient.set(request, peer)
  const response = await kernel.app.fetch(request)
  if (!response.headers.get('content-type')?.includes('text/event-stream') || !response.body) {
    return { status: response.status, body: await response.text() }
  }
  return { status: response.status, events: readEvents(response.body, signal) }
}

/**
 * The answer's SSE events. `signal` (the socket closed) cancels the answer: the pipeline then ends the
 * upstream call and settles its accounting at what was delivered, as for an HTTP client that left.
 */
/**
 * The answer's SSE events, until `signal` (the socket closed). The request carries that signal too: its
 * abort cuts the upstream call, and the pipeline ends the answer as a client that left (accounted for what
 * was delivered). The reader is dropped, never cancelled: cancelling a web body srvx made from a Node
 * stream can close an already cancelled stream inside Node's fetch (an uncaught exception).
 */
async function* readEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<{ event?: string; data: string }> {
  const parser = createSseParser()
  const decoder = new Utf8Decoder()
  const reader = body.getReader()
  const gone = signal && new Promise<undefined>(resolve => signal.aborted ? resolve(undefined) : signal.addEventListener('abort', () => resolve(undefined), { once: true }))
  for (;;) {
    const next = gone ? await Promise.race([reader.read(), gone]) : await reader.read()
    if (!next) return
    if (next.done) break
    yield* parser.push(decoder.write(next.value))
  }
  yield* parser.push(decoder.end())
  yield* parser.end()
}
