import type { Readable } from 'node:stream'

/**
 * A Node stream as a web stream: read as it flows, paused while the web side holds a chunk (so at most
 * one chunk is read ahead). Cancelling destroys the Node stream (an upstream body: its socket closes).
 * Node 20's `Readable.toWeb` costs about twice as much per chunk, an async-iterator pull about the same
 * plus a promise per chunk (docs/benchmarks.md, "stream answers as Node streams").
 */
export function webStreamOf(node: Readable): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      node.on('data', (chunk: Buffer) => {
        controller.enqueue(chunk)
        if (controller.desiredSize! <= 0) node.pause()
      })
      node.once('end', () => controller.close())
      node.once('error', error => controller.error(error))
    },
    pull() { node.resume() },
    cancel() { node.destroy() },
  })
}
