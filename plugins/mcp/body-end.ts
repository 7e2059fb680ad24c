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
