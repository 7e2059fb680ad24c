import type { Readable } from 'node:stream'
import type { Usage } from '../canonical/types.ts'
import type { StreamTransform } from './stream-transform.ts'

export { createStreamTransform } from './stream-transform.ts'

export interface StreamOutcome { usage?: Usage; error?: string }

/** An upstream stream read up to its first real event: what the client gets first, and where to go on. */
export interface PrimedStream { iterator: AsyncIterator<Buffer>; head: Uint8Array[] }

/**
 * Read the upstream until it has sent a whole event, before answering the client: a stream that ends,
 * breaks or sends nothing usable (an HTML error page with status 200) before that can still fail over.
 */
export async function primeStream(body: Readable, transform: StreamTransform): Promise<PrimedStream | { error: string }> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const head: Uint8Array[] = []
  try {
    while (!transform.primed) {
      const next = await iterator.next()
      if (next.done) return { error: 'the stream ended before its first event' }
      const out = transform.push(next.value)
      if (out) head.push(out)
    }
  } catch (error) {
    body.destroy()
    return { error: (error as Error).message }
  }
  return { iterator, head }
}

/**
 * Upstream body -> client ReadableStream, piped chunk by chunk (never buffered whole). A client that goes
 * away cancels the stream, which destroys the upstream body and with it the upstream socket.
 */
export function pipeStream(body: Readable, primed: PrimedStream, transform: StreamTransform, onDone: (outcome: StreamOutcome) => void): ReadableStream<Uint8Array> {
  const { iterator } = primed
  let head: Uint8Array | undefined = primed.head.length === 1 ? primed.head[0] : primed.head.length ? Buffer.concat(primed.head) : undefined
  let done = false
  const finish = (outcome: StreamOutcome) => {
    if (done) return
    done = true
    onDone(outcome)
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (head) {
          controller.enqueue(head)
          head = undefined
          return
        }
        for (;;) {
          const next = await iterator.next()
          if (next.done) {
            const tail = transform.end()
            if (tail) controller.enqueue(tail)
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
        const message = `upstream stream failed: ${(error as Error).message}`
        const tail = transform.fail(message)
        if (tail) controller.enqueue(tail)
        controller.close()
        finish({ usage: transform.usage, error: message })
      }
    },
    cancel() {
      body.destroy()
      finish({ usage: transform.usage, error: 'client disconnected' })
    },
  })
}
