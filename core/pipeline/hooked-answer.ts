import { Readable } from 'node:stream'
import type { AnswerStream, StreamOutcome } from './stream.ts'
import { onClientGone, type ClientSignal } from '../edge/client-abort.ts'

/** What the client and the records are told; the hook's own error goes to the operator's log only (it may hold internals). */
export const hookStreamFailed = 'the stream a before-response hook set failed'
export const hookStreamStopped = 'the stream a before-response hook set ended before the answer did'

/**
 * The answer when a `before-response` hook took its web stream (to wrap it, or to set one of its own):
 * the client gets what that stream gives, and the request ends where it ends, not where the upstream
 * did. A hook stream that fails, or that ends before the upstream's answer did, ends the client's
 * stream with the format's error event and counts as failed, as an upstream that breaks mid-stream
 * does (`AnswerStream`); a client that leaves lets both go. `outcome` settles once, with how it ended.
 * An in-process client (a WebSocket) leaves by its signal alone, nobody destroys this stream for it:
 * the signal does.
 */
export class HookedAnswer extends Readable {
  readonly outcome: Promise<StreamOutcome>
  #settle!: (outcome: StreamOutcome) => void
  #settled = false
  readonly #answer: AnswerStream
  readonly #onError: (error: unknown) => void
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  /** Why the hook's stream could not be read at all (a hook left it locked). */
  readonly #unreadable: unknown
  readonly #unsubscribe: (() => void) | undefined

  constructor(hooked: ReadableStream<Uint8Array>, answer: AnswerStream, gone: ClientSignal | undefined, onError: (error: unknown) => void) {
    super()
    this.#answer = answer
    this.#onError = onError
    this.outcome = new Promise((resolve) => { this.#settle = resolve })
    let reader
    try { reader = hooked.getReader() } catch (error) { this.#unreadable = error }
    this.#reader = reader
    const leave = () => { this.destroy() }
    if (gone?.aborted) process.nextTick(leave)
    else if (gone) this.#unsubscribe = onClientGone(gone, leave)
  }

  override _read(): void {
    const reader = this.#reader
    if (!reader) return this.#failed(this.#unreadable)
    reader.read().then(({ done, value }) => {
      if (this.#settled) return
      if (done) return this.#ended()
      // Bytes only: a string or an object would reach the socket as something else, or throw there.
      if (!(value instanceof Uint8Array)) throw new TypeError(`it gave a ${typeof value}, not bytes`)
      this.push(value)
    }).catch(error => this.#failed(error))
  }

  #ended(): void {
    // The hook's stream read the answer to its end (whole, or failed with the client told so): its outcome stands.
    // Not when the hook's pipe cancelled it: that reads as a client gone, but the client is still here.
    const answered = this.#answer.readableEnded && this.#answer.outcome
    if (answered) return this.#close(undefined, answered)
    const { tail, outcome } = this.#answer.abandon(hookStreamStopped)
    this.#close(tail, outcome)
  }

  #failed(error: unknown): void {
    if (this.#settled) return
    this.#onError(error)
    void this.#reader?.cancel().catch(() => {})
    const { tail, outcome } = this.#answer.abandon(hookStreamFailed)
    this.#close(tail, outcome)
  }

  #close(tail: Uint8Array | undefined, outcome: StreamOutcome): void {
    this.#settled = true
    this.#unsubscribe?.()
    if (tail) this.push(tail)
    this.push(null)
    this.#settle(outcome)
  }

  override _destroy(_error: Error | null, callback: (error?: Error | null) => void): void {
    // The client left: the upstream goes too (a hook's own stream may never have read it), and how that ended is the request's outcome.
    if (!this.#settled) {
      this.#settled = true
      this.#unsubscribe?.()
      void this.#reader?.cancel().catch(() => {})
      this.#answer.destroy()
      this.#settle(this.#answer.outcome ?? { error: 'client disconnected', partial: true, clientLeft: true })
    }
    callback()
  }
}
