import type { Readable } from 'node:stream'
import type { Usage } from '../canonical/types.ts'
import type { StreamTransform } from './stream-transform.ts'
import type { OpenAnswer, OpenAnswers } from './open-answers.ts'

export { createStreamTransform } from './stream-transform.ts'

export interface StreamOutcome { usage?: Usage; error?: string }

/** An upstream stream read up to its first real event: what the client gets first, and where to go on. */
export interface PrimedStream { kind: 'primed'; iterator: AsyncIterator<Buffer>; head: Uint8Array[] }

/** A stream that ended, broke or sent nothing usable before its first event (it may still fail over). */
export interface BrokenStream { kind: 'broken'; error: string }

/**
 * Read the upstream until it has sent a whole event, before answering the client: a stream that ends,
 * breaks or sends nothing usable (an HTML error page with status 200) before that can still fail over.
 */
export async function primeStream(body: Readable, transform: StreamTransform): Promise<PrimedStream | BrokenStream> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const head: Uint8Array[] = []
  try {
    while (!transform.primed) {
      const next = await iterator.next()
      if (next.done) return { kind: 'broken', error: 'the stream ended before its first event' }
      const out = transform.push(next.value)
      if (out) head.push(out)
    }
  } catch (error) {
    body.destroy()
    return { kind: 'broken', error: (error as Error).message }
  }
  return { kind: 'primed', iterator, head }
}

/**
 * Upstream body -> client ReadableStream, piped chunk by chunk (never buffered whole). A client that goes
 * away cancels the stream, which destroys the upstream body and with it the upstream socket. While it
 * runs the stream is in `open`: a shutdown whose drain window ran out ends it with an error event.
 */
export function pipeStream(body: Readable, primed: PrimedStream, transform: StreamTransform, onDone: (outcome: StreamOutcome) => void, open?: OpenAnswers): ReadableStream<Uint8Array> {
  const { iterator } = primed
  let head: Uint8Array | undefined = primed.head.length === 1 ? primed.head[0] : primed.head.length ? Buffer.concat(primed.head) : undefined
  let done = false
  let closed = false
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const finish = (outcome: StreamOutcome) => {
    if (done) return
    done = true
    open?.delete(entry)
    onDone(outcome)
  }
  /** The client's side ends here, with the format's error event; the upstream is let go. */
  const endWithError = (message: string, status?: number) => {
    if (closed) return
    closed = true
    const tail = transform.fail(message, status)
    if (tail) controller.enqueue(tail)
    controller.close()
    finish({ usage: transform.usage, error: message })
  }
  const entry: OpenAnswer = {
    end(message, status) {
      endWithError(message, status)
      body.destroy()
    },
  }
  open?.add(entry)
  return new ReadableStream<Uint8Array>({
    start(c) { controller = c },
    async pull() {
      try {
        if (head) {
          controller.enqueue(head)
          head = undefined
          return
        }
        for (;;) {
          const next = await iterator.next()
          if (closed) return
          if (next.done) {
            const tail = transform.end()
            if (tail) controller.enqueue(tail)
            closed = true
            controller.close()
            finish({ usage: transform.usage })
            return
          }
          const out = transform.push(next.value)
          if (out) {
            controller.enqueue(out)
            return
          }
        }
      } catch (error) {
        // After the first byte there is no retry: tell the client in its own format and end cleanly.
        endWithError(`upstream stream failed: ${(error as Error).message}`)
      }
    },
    cancel() {
      closed = true
      body.destroy()
      finish({ usage: transform.usage, error: 'client disconnected' })
    },
  })
}
