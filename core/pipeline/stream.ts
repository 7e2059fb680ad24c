import type { Readable } from 'node:stream'
import type { StreamEncoder, StreamDecoder, WireFormat } from '../canonical/codec.ts'
import type { StreamEvent, Usage } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel.ts'
import type { ProxyRequest } from '../hooks.ts'
import { createSseParser } from '../http/sse.ts'
import { ProxyError } from '../http/errors.ts'
import type { ClientEncoding } from './non-stream.ts'

export interface StreamOutcome { usage?: Usage; error?: string }

/** Turns upstream SSE text into client text, one event at a time. */
interface StreamTransform {
  push(text: string): string
  end(): string
  fail(message: string): string
  /** The upstream has sent something real (a whole event): from here on the answer is committed. */
  readonly primed: boolean
  readonly usage?: Usage
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Same format: pass frames through, only the model name rewritten when the client used an alias. */
function passthroughTransform(kernel: ProxyKernel, request: ProxyRequest, upstreamModel: string): StreamTransform {
  const codec = kernel.formats.get(request.inbound)
  const encoderForErrors = codec?.stream.createEncoder({ model: request.model })
  const rename = upstreamModel === request.model
    ? undefined
    // generateContent names the model in `modelVersion`, the other formats in `model`.
    : { pattern: new RegExp(`("(?:model|modelVersion)"\\s*:\\s*)"${escapeRegExp(upstreamModel)}"`, 'g'), value: `$1${JSON.stringify(request.model)}` }
  const renamed = (text: string) => rename ? text.replace(rename.pattern, rename.value) : text
  // Whole events only: a stream cut mid-event must not glue half a frame to the error frame after it.
  let carry = ''
  let primed = false
  return {
    push(text) {
      const buffer = carry + text
      const cut = lastEventEnd(buffer)
      carry = buffer.slice(cut)
      if (cut) primed = true
      return cut ? renamed(buffer.slice(0, cut)) : ''
    },
    // A clean end: what is left goes as it came (an SSE client drops an event that lacks its blank line).
    end: () => carry ? renamed(carry) : '',
    fail: message => encoderForErrors ? encoderForErrors.push({ type: 'error', status: 502, message }) + encoderForErrors.end() : '',
    get primed() { return primed },
  }
}

/** Index just past the last blank line (`\n\n`, `\r\n\r\n` or `\r\r`) in `text`, 0 when there is none. */
function lastEventEnd(text: string): number {
  const at = (separator: string) => {
    const index = text.lastIndexOf(separator)
    return index === -1 ? 0 : index + separator.length
  }
  return Math.max(at('\n\n'), at('\r\n\r\n'), at('\r\r'))
}

/** Different formats: upstream SSE -> canonical events -> client wire text, with per-request state. */
function translatingTransform(decoder: StreamDecoder, encoder: StreamEncoder): StreamTransform {
  const parser = createSseParser()
  let usage: Usage | undefined
  let finished = false
  let primed = false
  const emit = (events: StreamEvent[]) => {
    if (events.length) primed = true
    let out = ''
    for (const event of events) {
      if (event.type === 'finish') {
        if (finished) continue
        finished = true
        usage = event.usage
      }
      out += encoder.push(event)
    }
    return out
  }
  return {
    push(text) {
      let out = ''
      for (const sse of parser.push(text)) out += emit(decoder.push(sse))
      return out
    },
    end() {
      let out = ''
      for (const sse of parser.end()) out += emit(decoder.push(sse))
      return out + emit(decoder.end()) + encoder.end()
    },
    fail(message) {
      return encoder.push({ type: 'error', status: 502, message }) + encoder.end()
    },
    get primed() { return primed },
    get usage() { return usage },
  }
}

export function createStreamTransform(kernel: ProxyKernel, request: ProxyRequest, upstream: WireFormat, upstreamModel: string, sse = true, client?: ClientEncoding, passthrough = true): StreamTransform {
  if (upstream === request.inbound && sse && !client && passthrough) return passthroughTransform(kernel, request, upstreamModel)
  const source = kernel.formats.get(upstream)
  const target = client ?? kernel.formats.get(request.inbound)
  if (!source || !target) throw new ProxyError(501, `no translation from ${upstream} to ${request.inbound} is installed`, 'server_error')
  return translatingTransform(source.stream.createDecoder(), target.stream.createEncoder({ model: request.model, sse }))
}

/** An upstream stream read up to its first real event: what the client gets first, and where to go on. */
export interface PrimedStream { iterator: AsyncIterator<Buffer>; head: string; decoder: TextDecoder }

/**
 * Read the upstream until it has sent a whole event, before answering the client: a stream that ends,
 * breaks or sends nothing usable (an HTML error page with status 200) before that can still fail over.
 */
export async function primeStream(body: Readable, transform: StreamTransform): Promise<PrimedStream | { error: string }> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const decoder = new TextDecoder()
  let head = ''
  try {
    while (!transform.primed) {
      const next = await iterator.next()
      if (next.done) return { error: 'the stream ended before its first event' }
      head += transform.push(decoder.decode(next.value, { stream: true }))
    }
  } catch (error) {
    body.destroy()
    return { error: (error as Error).message }
  }
  return { iterator, head, decoder }
}

/**
 * Upstream body -> client ReadableStream, piped chunk by chunk (never buffered whole). A client that goes
 * away cancels the stream, which destroys the upstream body and with it the upstream socket.
 */
export function pipeStream(body: Readable, primed: PrimedStream, transform: StreamTransform, onDone: (outcome: StreamOutcome) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const { iterator, decoder } = primed
  let head = primed.head
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
          controller.enqueue(encoder.encode(head))
          head = ''
          return
        }
        for (;;) {
          const next = await iterator.next()
          if (next.done) {
            const tail = transform.push(decoder.decode()) + transform.end()
            if (tail) controller.enqueue(encoder.encode(tail))
            controller.close()
            finish({ usage: transform.usage })
            return
          }
          const out = transform.push(decoder.decode(next.value, { stream: true }))
          if (out) {
            controller.enqueue(encoder.encode(out))
            return
          }
        }
      } catch (error) {
        // After the first byte there is no retry: tell the client in its own format and end cleanly.
        const message = `upstream stream failed: ${(error as Error).message}`
        const tail = transform.fail(message)
        if (tail) controller.enqueue(encoder.encode(tail))
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
