/**
 * The same response, calling `done` once its body has ended, failed or been cancelled by the client
 * (a stream answer outlives the handler; the SDK server behind it is closed only then).
 */
export function whenBodyEnds(response: Response, done: () => void): Response {
  const body = response.body
  if (!body) {
    done()
    return response
  }
  let called = false
  const once = () => {
    if (!called) {
      called = true
      done()
    }
  }
  const reader = body.getReader()
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: ended } = await reader.read()
        if (ended) {
          controller.close()
          once()
        } else controller.enqueue(value)
      } catch (error) {
        controller.error(error)
        once()
      }
    },
    cancel(reason) {
      once()
      return reader.cancel(reason)
    },
  })
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers })
}

const opening = new TextEncoder().encode(': open\n\n')

/**
 * An event-stream answer that starts with an SSE comment (which clients skip): the server sends a
 * response's headers only with its first bytes, so a stream that stays quiet (a long call without
 * progress, a standing GET stream) left its client without headers, and Node's fetch gives up on those
 * after 300 s. The SDK's own Node transport sends them at once.
 */
export function openedAtOnce(response: Response): Response {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response
  const reader = response.body.getReader()
  let opened = false
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!opened) {
        opened = true
        return controller.enqueue(opening)
      }
      const { value, done } = await reader.read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel: reason => reader.cancel(reason),
  })
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers })
}
