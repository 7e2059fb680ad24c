const comment = new TextEncoder().encode(': keep-alive\n\n')

/** True when `chunk` ends an SSE event, so a comment may follow without splitting one. */
function endsEvent(chunk: Uint8Array): boolean {
  const n = chunk.length
  return n >= 2 && chunk[n - 1] === 10 && (chunk[n - 2] === 10 || (n >= 4 && chunk[n - 2] === 13 && chunk[n - 3] === 10))
}

/**
 * Forward `source`, adding `: keep-alive` + blank line whenever it has been quiet for `seconds`
 * (spec Events 2). Comments only go between events, never inside one.
 */
export function withSseKeepalive(source: ReadableStream<Uint8Array>, seconds: number): ReadableStream<Uint8Array> {
  const reader = source.getReader()
  let timer: NodeJS.Timeout | undefined
  let atBoundary = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const arm = () => {
        clearTimeout(timer)
        timer = setTimeout(() => {
          if (atBoundary) controller.enqueue(comment)
          arm()
        }, seconds * 1000)
      }
      arm()
      // Every failure is caught inside: the pump never rejects.
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read()
            if (done) break
            controller.enqueue(value)
            atBoundary = endsEvent(value)
            arm()
          }
          controller.close()
        } catch (error) {
          controller.error(error)
        } finally {
          clearTimeout(timer)
        }
      })()
    },
    cancel(reason) {
      clearTimeout(timer)
      return reader.cancel(reason)
    },
  })
}
