import { Readable } from 'node:stream'
import type { Usage } from '../canonical/types.ts'
import type { StreamTransform } from './stream-transform.ts'
import type { OpenAnswer, OpenAnswers } from './open-answers.ts'
import { ErrorFirstEvent } from './first-event.ts'

export { createStreamTransform } from './stream-transform.ts'

/** How long an upstream may take to end its response after the answer's last event before it is let go. */
export const endGraceMs = 1000

export interface StreamOutcome {
  usage?: Usage
  error?: string
  /** The answer did not end whole (cut, failed, or the client left): its usage is what was delivered. */
  partial?: boolean
  /** Characters of answer the client was given. */
  delivered?: number
  /** It stopped because the client went away, not because the upstream (or a hook's stream) failed. */
  clientLeft?: true
}

/**
 * A stream answer: the upstream body through the transform, as a Node Readable, piped into the
 * ServerResponse (`SocketPipe`, core/edge/respond.ts); a web ReadableStream costs a promise round per chunk
 * and exists only if a hook asks for one (`ResponseContext.stream`).
 *
 * Two phases. `primed` settles once the upstream has sent a whole event: a stream that ends, breaks or
 * sends nothing usable before that (an HTML error page with status 200) can still fail over. `start()`
 * commits the answer: from then on it ends in one way only, and `onDone` hears which (the upstream
 * ended, it failed and the client got the format's error event, the client went away, or a shutdown
 * ended it). The upstream is read no faster than the client takes it (backpressure), never
 * buffered whole; a client that goes away destroys the upstream body and with it its socket.
 */
export class AnswerStream extends Readable {
  readonly #body: Readable
  readonly #transform: StreamTransform
  /** Nothing more goes to the client (the end, or the error event, is pushed). */
  #closed = false
  /** How it ended, once it has. */
  #outcome: StreamOutcome | undefined
  /** Set from `start` until told. */
  #onDone: ((outcome: StreamOutcome) => void) | undefined
  #open: OpenAnswers | undefined
  /** Set while priming: settles `primed`. */
  #primed: ((broken: string | undefined) => void) | undefined
  /** Undefined once the first whole event is in, or why the stream broke before it (the upstream is let go). */
  readonly primed: Promise<string | undefined>
  /** Set when the stream broke because its first event was an error: the attempt fails with its status. */
  errorFirst: ErrorFirstEvent | undefined
  /** What a drain ends (not the Readable itself: stream utilities read `end` as a Writable's). */
  readonly #entry: OpenAnswer = { end: (message, status) => this.#endNow(message, status) }

  /** The client's signal: an in-process caller (a WebSocket) that leaves aborts it, which cuts the upstream. */
  readonly #gone: { readonly aborted: boolean } | undefined

  constructor(body: Readable, transform: StreamTransform, gone?: { readonly aborted: boolean }) {
    super()
    this.#body = body
    this.#gone = gone
    this.#transform = transform
    this.primed = new Promise((resolve) => { this.#primed = resolve })
    body.on('data', this.#onData)
    body.once('end', this.#onEnd)
    body.on('error', this.#onError)
  }

  /** The answer is committed: `onDone` hears how it ended; while it runs it is in `open` (a drain can end it). */
  start(onDone: (outcome: StreamOutcome) => void, open?: OpenAnswers): void {
    this.#onDone = onDone
    this.#open = open
    open?.add(this.#entry)
    // The upstream ended (or the client went) while the answer was being committed: say so now.
    if (this.#outcome) this.#finish(this.#outcome)
  }

  /** How it ended, once it has. */
  get outcome(): StreamOutcome | undefined {
    return this.#outcome
  }

  /**
   * The client's stream was ended elsewhere (a hook's stream failed, or stopped before this one did,
   * core/pipeline/hooked-answer.ts): the upstream is let go. Gives the format's error event for the
   * client and the failed outcome, which is the request's even when this answer had ended whole: the
   * client did not get its end.
   */
  abandon(message: string): { tail: Uint8Array | undefined; outcome: StreamOutcome } {
    const transform = this.#transform
    if (!this.#closed) {
      this.#closed = true
      this.#body.destroy()
      transform.settle()
    }
    const outcome = this.#failure(message)
    this.#finish(outcome)
    this.destroy()
    return { tail: transform.fail(message), outcome }
  }

  /** A drain ran out of time: end now with the format's error event, and let the upstream go. */
  #endNow(message: string, status?: number): void {
    this.#fail(message, status)
    this.#body.destroy()
  }

  #onData = (chunk: Buffer): void => {
    // Ended (the last event went by): what the upstream sends until its end is read and dropped.
    if (this.#closed) return
    let out: Uint8Array | undefined
    try {
      out = this.#transform.push(chunk)
    } catch (error) {
      if (this.#primed) return this.#broken((error as Error).message, error)
      // After the first byte there is no retry: tell the client in its own format and end cleanly.
      return this.#failUpstream(error as Error)
    }
    // The client is slow: the upstream waits until `_read` asks for more.
    if (out && !this.#closed && !this.push(out)) this.#body.pause()
    if (this.#primed && this.#transform.primed) {
      const resolve = this.#primed
      this.#primed = undefined
      resolve(undefined)
    }
    if (this.#transform.complete) this.#onComplete()
  }

  /**
   * The answer's last event went by: it ends now as the upstream's end would end it, without waiting for
   * that end (an upstream may hold its connection open). The upstream gets `endGraceMs` to end its
   * response, read and dropped (most send the end with the last event: their connection goes back to
   * the pool); one that holds on is let go, its connection left mid-response and no longer reusable.
   */
  #onComplete(): void {
    this.#onEnd()
    const body = this.#body
    if (body.readableEnded || body.destroyed) return
    const timer = setTimeout(() => body.destroy(), endGraceMs)
    timer.unref()
    body.once('close', () => clearTimeout(timer))
    body.resume()
  }

  #onEnd = (): void => {
    if (this.#primed) return this.#broken('the stream ended before its first event')
    if (this.#closed) return
    const transform = this.#transform
    const tail = transform.end()
    if (tail) this.push(tail)
    // Ended without its terminal event, or mid-event: a failure, never a normal finish.
    if (transform.cut) return this.#fail(`upstream stream failed: ${transform.cut}`)
    this.#closed = true
    // Told now, not when the client has read the end: usage counts (token limits) land before the client's next request.
    this.#close(undefined, this.#ended())
  }

  /** How an answer that reached its terminal event ended: whole, or failed with the error the upstream sent in it. */
  #ended(): StreamOutcome {
    const { upstreamError, usage, delivered } = this.#transform
    return upstreamError === undefined ? { usage, delivered } : this.#failure(upstreamError)
  }

  /** An answer that did not end whole: its usage is what was reported and delivered so far. */
  #failure(error: string): StreamOutcome {
    return { usage: this.#transform.usage, error, partial: true, delivered: this.#transform.delivered }
  }

  #onError = (error: Error): void => {
    if (this.#primed) return this.#broken(error.message)
    // The upstream was cut because the client left (its signal): a client that disconnected, not an upstream failure.
    if (this.#gone?.aborted) return void this.destroy()
    this.#failUpstream(error)
  }

  #failUpstream(error: Error): void {
    this.#fail(`upstream stream failed: ${error.message}`)
    this.#body.destroy()
  }

  #broken(reason: string, cause?: unknown): void {
    if (cause instanceof ErrorFirstEvent) this.errorFirst = cause
    const resolve = this.#primed!
    this.#primed = undefined
    this.#closed = true
    this.#body.destroy()
    this.destroy()
    resolve(reason)
  }

  /**
   * The client's side ends here, with the format's error event and the usage reported so far (read on
   * either path alike). Unless the terminal event had gone by: a break after it leaves a whole answer,
   * ended as the upstream's end would have ended it.
   */
  #fail(message: string, status?: number): void {
    if (this.#closed) return
    this.#closed = true
    const transform = this.#transform
    if (transform.settle()) return this.#close(transform.end(), this.#ended())
    this.#close(transform.fail(message, status), this.#failure(message))
  }

  #close(tail: Uint8Array | undefined, outcome: StreamOutcome): void {
    if (tail) this.push(tail)
    this.push(null)
    this.#finish(outcome)
  }

  /** The first outcome counts; told to `onDone` once there is one (now, or when `start` comes). */
  #finish(outcome: StreamOutcome): void {
    this.#outcome ??= outcome
    const onDone = this.#onDone
    if (!onDone) return
    this.#onDone = undefined
    this.#open?.delete(this.#entry)
    onDone(this.#outcome)
  }

  override _read(): void {
    if (this.#body.isPaused()) this.#body.resume()
  }

  override _destroy(_error: Error | null, callback: (error?: Error | null) => void): void {
    // Before the upstream ended: the client went away (or a hook's stream gave up); the upstream goes too.
    if (!this.#closed) {
      this.#closed = true
      this.#body.destroy()
      // Gone after the terminal event (an agent that stops reading at `message_stop`): the answer was
      // whole and its usage reported, whichever of the client's close and the upstream's end came first.
      const whole = this.#transform.settle()
      this.#finish(whole ? this.#ended() : { ...this.#failure('client disconnected'), clientLeft: true })
    }
    // Whoever destroyed it with an error has it already: emitted again here, nobody may be listening.
    callback()
  }
}
