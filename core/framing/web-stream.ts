import type { Readable } from 'node:stream'

/** A Node stream as a web stream, paused while the web side holds a chunk (half the cost of `Readable.toWeb`). */
export function webStreamOf(node: Readable): ReadableStream<Uint8Array> {
  // Once the web side is done (cancelled, a resume already queued), a chunk still emitted would throw outside any request.
  let open = true
  return new ReadableStream<Uint8Array>({
    start(controller) {
      node.on('data', (chunk: Buffer) => {
        if (!open) return
        controller.enqueue(chunk)
        if (controller.desiredSize! <= 0) node.pause()
      })
      node.once('end', () => { if (open) { open = false; controller.close() } })
      node.once('error', (error) => { if (open) { open = false; controller.error(error) } })
    },
    pull() { node.resume() },
    cancel() {
      open = false
      node.destroy()
    },
  })
}
