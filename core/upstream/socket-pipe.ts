import type { Readable, Writable } from 'node:stream'

/** A Node stream as a body srvx can only `pipe` (its `stream.pipeline` builds a DOMException per stream); an early close destroys it. */
export class SocketPipe {
  constructor(readonly source: Readable) {}

  pipe<T extends Writable>(destination: T): T {
    destination.once('close', () => { if (!this.source.readableEnded) this.source.destroy() })
    return this.source.pipe(destination)
  }

  /** srvx calls `abort` unbound when someone reads the web body, `destroy` when the response is gone. */
  readonly abort = (): void => { this.source.destroy() }
  readonly destroy = this.abort
}
