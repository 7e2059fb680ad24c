import type { ProxyKernel } from 'model-proxy'
import { trustedClient, type SocketPeer } from 'model-proxy/kit/access'
import { createSseParser, Utf8Decoder } from 'model-proxy/kit/http'

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
  const request = new Request(`http://proxy.internal${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal })
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
async function* readEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<{ event?: string; data: string }> {
  const parser = createSseParser()
  const decoder = new Utf8Decoder()
  const reader = body.getReader()
  let ended = false
  const cancel = () => { reader.cancel().catch(() => {}) }
  signal?.addEventListener('abort', cancel, { once: true })
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      yield* parser.push(decoder.write(value))
    }
    ended = !signal?.aborted
  } finally {
    signal?.removeEventListener('abort', cancel)
    // A consumer that stopped early (or a closed socket) leaves nothing running behind it.
    if (!ended) cancel()
  }
  if (signal?.aborted) return
  yield* parser.push(decoder.end())
  yield* parser.end()
}
