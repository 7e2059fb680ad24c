import type { Readable, Writable } from 'node:stream'

/**
 * A Node stream as a body srvx only knows to `pipe`: given the Readable, srvx runs `stream.pipeline`, whose
 * per-stream AbortController builds a DOMException on end (~45 µs a request). A response closed early destroys the source.
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
