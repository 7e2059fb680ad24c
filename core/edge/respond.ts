import { FastResponse } from 'srvx'
import type { Readable, Writable } from 'node:stream'
import type { H3, H3Event } from 'h3'
import { defineObjectState } from '../kernel/request-state.ts'

/** CORS headers of the spec's Versioning section, on every response, errors included (CORS hides unexposed headers from scripts). */
export const corsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': 'x-request-id, x-proxy-dropped, x-proxy-overhead-ms, x-proxy-served-model, retry-after',
}

const jsonType = { 'content-type': 'application/json' }

export function jsonResponse(body: unknown, status = 200, headers?: Record<string, string>): Response {
  // FastResponse: written straight to the Node socket, no web-stream body.
  return new FastResponse(JSON.stringify(body), { status, headers: headers ? { ...jsonType, ...headers } : jsonType })
}

/** Response headers of an SSE stream (spec Events 1). */
export const sseHeaders: Record<string, string> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
}

/** An answer's body: whole text, or a stream (something srvx can `pipe` into the socket). */
export type AnswerBody = string | ReadableStream<Uint8Array> | { pipe(destination: Writable): unknown }

/** Set on a response that already carries the base headers (CORS, X-Request-ID): the app middleware leaves it alone. */
export const hasBaseHeaders = defineObjectState<Response, true>('base-headers', { shared: true })

/** A 200 of the pipeline with the base headers in its init: touching `response.headers` later builds a web Headers object. */
export function answerResponse(event: H3Event, body: AnswerBody, headers: Record<string, string>): Response {
  const base = event.context.baseHeaders
  // srvx pipes a body with `pipe` into the socket, and through a PassThrough into a web body if someone reads `body`.
  const response = new FastResponse(body as BodyInit, { status: 200, headers: base ? { ...base, ...headers } : headers })
  if (base) hasBaseHeaders.set(response, true)
  return response
}

/** Read a request body to its end and drop it: answering and closing while it still arrives resets the connection. */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body) return
  try {
    for await (const _chunk of request.body as unknown as AsyncIterable<Uint8Array>) { /* dropped */ }
  } catch {} // the client went away: nothing to answer anyway
}

/** A Node stream as a body srvx can only `pipe` (its `stream.pipeline` builds a DOMException per stream); an early close destroys it. */
export class SocketPipe {
  constructor(readonly source: Readable) {}

  pipe<T extends Writable>(destination: T): T {
    destination.once('close', () => { if (!this.source.readableEnded) this.source.destroy() })
    // A source that fails (an upstream body cut mid-way) cuts the client's connection: its answer was not
    // whole, and must not end as if it were. `pipe` listens to no source error: unheard, one ends the process.
    this.source.on('error', () => { destination.destroy() })
    return this.source.pipe(destination)
  }

  /** srvx calls `abort` unbound when someone reads the web body, `destroy` when the response is gone. */
  readonly abort = (): void => { this.source.destroy() }
  readonly destroy = this.abort
}

/** A Node stream (an upstream body) as the response: piped into the socket, no web stream per chunk. */
export function pipedResponse(source: Readable, status: number, headers: HeadersInit): Response {
  return new FastResponse(new SocketPipe(source) as unknown as BodyInit, { status, headers })
}

/** A HEAD answered as its GET without the body (the JSON 404 route matches every path, so h3's HEAD fallback never runs). */
export async function answerHead(app: H3, event: H3Event): Promise<Response> {
  const get = new Request(event.req.url, { method: 'GET', headers: event.req.headers, signal: event.req.signal })
  // The GET keeps the connection's facts, so access checks decide the same.
  const source = event.req as Request & { ip?: string; runtime?: unknown }
  Object.defineProperties(get, { ip: { value: source.ip }, runtime: { value: source.runtime } })
  const response = await app.fetch(get)
  // A stream (an event feed) is closed at once: HEAD wants the headers only.
  await response.body?.cancel().catch(() => {})
  return new Response(null, { status: response.status, headers: response.headers })
}
