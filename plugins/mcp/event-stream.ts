const encoder = new TextEncoder()
const opening = encoder.encode(': open\n\n')
/** What the SDKs' own transports send; every SSE parser skips a comment line. */
const keepalive = encoder.encode(': keepalive\n\n')
const eventStreamHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' }

export const isEventStream = (response: Response) => response.headers.get('content-type')?.startsWith('text/event-stream') === true
export const acceptsEventStream = (request: Request) => request.headers.get('accept')?.includes('text/event-stream') === true

/** Whether a chunk ends an SSE event, so that a comment after it splits none. */
function endsEvent(chunk: Uint8Array): boolean {
  const n = chunk.length
  return n >= 2 && chunk[n - 1] === 10 && (chunk[n - 2] === 10 || (n >= 4 && chunk[n - 2] === 13 && chunk[n - 3] === 10))
}

/**
 * An event-stream answer that starts with an SSE comment, and sends `: keepalive` after every
 * `keepaliveSeconds` (0: never) the stream stays quiet. The server sends a response's headers only with
 * its first bytes, so a quiet stream (a long call without progress, a standing GET stream) left its
 * client without headers; and Node's fetch (undici) drops a body that sends no byte for 300 s, so a
 * call longer than that was lost. Comments go only between events.
 */
export function openedAtOnce(response: Response, keepaliveSeconds = 0): Response {
  if (!response.body || !isEventStream(response)) return response
  const reader = response.body.getReader()
  let opened = false
  let atBoundary = true
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!opened) {
        opened = true
        return controller.enqueue(opening)
      }
      // Only while the source is quiet: a client that does not read gets no comments queued for it.
      const timer = keepaliveSeconds > 0
        ? setInterval(() => {
          try {
            if (atBoundary) controller.enqueue(keepalive)
          } catch {}
        }, keepaliveSeconds * 1000)
        : undefined
      try {
        const { value, done } = await reader.read()
        if (done) return controller.close()
        controller.enqueue(value)
        atBoundary = endsEvent(value)
      } finally {
        clearInterval(timer)
      }
    },
    cancel: reason => reader.cancel(reason),
  })
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers })
}

/** An answer's JSON body as one SSE `message` event (one `data:` line per line of it). */
export const asEvent = (json: string) => encoder.encode(`event: message\n${json.split(/\r?\n/).map(line => `data: ${line}`).join('\n')}\n\n`)

/**
 * A 2026-07-28 answer, which the SDK gives as one JSON body when its handler sends nothing before the
 * result: a quiet call sends no byte, not even its headers, until it ends. When the client accepts an
 * event stream and the answer is not there within `keepaliveSeconds`, the client gets an event stream
 * at once (kept alive, as above) that carries the answer as its event, or the SDK's own stream when
 * it turned to one. A client that accepts only JSON can be sent nothing before the answer.
 */
export async function streamedWhenSlow(answer: Promise<Response>, request: Request, keepaliveSeconds: number): Promise<Response> {
  if (keepaliveSeconds <= 0 || !acceptsEventStream(request)) return openedAtOnce(await answer, keepaliveSeconds)
  let timer: ReturnType<typeof setTimeout> | undefined
  const slow = new Promise<undefined>(resolve => { timer = setTimeout(() => resolve(undefined), keepaliveSeconds * 1000) })
  const first = await Promise.race([answer, slow]).finally(() => clearTimeout(timer))
  if (first) return openedAtOnce(first, keepaliveSeconds)
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  let cancelled = false
  const events = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!reader) {
        const response = await answer
        if (cancelled) return void await response.body?.cancel().catch(() => {})
        if (!response.body || !isEventStream(response)) {
          // A JSON answer, or none (the client left: the SDK answers 499 without a body).
          const json = await response.text()
          if (json) controller.enqueue(asEvent(json))
          return controller.close()
        }
        reader = response.body.getReader()
      }
      const { value, done } = await reader.read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel(reason) {
      cancelled = true
      return reader?.cancel(reason)
    },
  })
  return openedAtOnce(new Response(events, { status: 200, headers: eventStreamHeaders }), keepaliveSeconds)
}

/** An event-stream answer with more messages sent after its own (any other answer as it is). */
export function followedBy(response: Response, messages: unknown[]): Response {
  if (!messages.length || !response.body || !isEventStream(response)) return response
  const reader = response.body.getReader()
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await reader.read()
      if (!done) return controller.enqueue(value)
      for (const message of messages) controller.enqueue(asEvent(JSON.stringify(message)))
      controller.close()
    },
    cancel: reason => reader.cancel(reason),
  })
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers })
}
