import type { Readable } from 'node:stream'

/** A Node stream as a web stream, paused while the web side holds a chunk (half the cost of `Readable.toWeb`). */
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
