import type { ProxyKernel } from 'model-proxy'
import { trustedClient, type SocketPeer } from 'model-proxy/kit/access'
import { createSseParser, Utf8Decoder } from 'model-proxy/kit/http'

/** Bytes a socket could not read go as sent, so the endpoint refuses them as it refuses an HTTP body. */
const raw = (body: unknown): BodyInit => body instanceof Uint8Array ? new Uint8Array(body) : typeof body === 'string' ? body : JSON.stringify(body)

/** Names the WebSocket connection a bridged request came over. */
export const wsConnectionHeader = 'x-proxy-ws-connection'

/**
 * The answer headers a socket client may need and a socket has no place for but its error message: when to
 * come back, the request's id, what translation dropped, which model served, the upstream's rate-limit
 * state. The vendor's own socket error carries them as `headers` (the Codex CLI reads them as an HTTP
 * error's headers).
 */
const passedHeader = /^(?:retry-after|x-request-id|x-proxy-dropped|x-proxy-served-model|x-should-retry|x-ratelimit-.*|x-codex-.*|anthropic-ratelimit-.*)$/

function passedHeaders(headers: Headers): Record<string, string> | undefined {
  let picked: Record<string, string> | undefined
  for (const [name, value] of headers) if (passedHeader.test(name)) (picked ??= {})[name] = value
  return picked
}

export interface BridgeReply {
  status: number
  /** The answer headers a socket passes on (`passedHeader`), when there are any. */
  headers?: Record<string, string>
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
  const passed = passedHeaders(response.headers)
  if (!response.headers.get('content-type')?.includes('text/event-stream') || !response.body) {
    return { status: response.status, headers: passed, body: await response.text() }
  }
  return { status: response.status, headers: passed, events: readEvents(response.body, signal) }
}

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
