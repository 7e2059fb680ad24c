import type { Readable, Writable } from 'node:stream'

/**
 * A Node stream as srvx takes a body it only knows to `pipe` (srvx's pipeBody): Node's classic pipe
 * into the response. Given the Readable itself, srvx runs `stream.pipeline`, which aborts an
 * AbortController per stream when it ends, and the abort builds a DOMException with its stack (~45 µs
 * a request in a profile). A response closed before the end (the client went away) destroys the source,
 * which lets the upstream go.
 */
export class SocketPipe {
  constructor(readonly source: Readable) {}

  pipe<T extends Writable>(destination: T): T {
    destination.once('close', () => {
      if (!this.source.readableEnded) this.source.destroy()
    })
    return this.source.pipe(destination)
  }

  /** Let the source go (srvx calls `abort` unbound when someone reads the web body, `destroy` when the response is already gone). */
  readonly abort = (): void => {
    this.source.destroy()
  }

  readonly destroy = this.abort
}
