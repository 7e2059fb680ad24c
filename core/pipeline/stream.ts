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
  readonly usage?: Usage
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Same format: pass frames through, only the model name rewritten when the client used an alias. */
function passthroughTransform(kernel: ProxyKernel, request: ProxyRequest, upstreamModel: string): StreamTransform {
  const codec = kernel.formats.get(request.inbound)
  const encoderForErrors = codec?.stream.createEncoder({ model: request.model })
  const rename = upstreamModel === request.model
    ? undefined
    : { pattern: new RegExp(`("model"\\s*:\\s*)"${escapeRegExp(upstreamModel)}"`, 'g'), value: `$1${JSON.stringify(request.model)}` }
  return {
    push: text => rename ? text.replace(rename.pattern, rename.value) : text,
    end: () => '',
    fail: message => encoderForErrors ? encoderForErrors.push({ type: 'error', status: 502, message }) + encoderForErrors.end() : '',
  }
}

/** Different formats: upstream SSE -> canonical events -> client wire text, with per-request state. */
function translatingTransform(decoder: StreamDecoder, encoder: StreamEncoder): StreamTransform {
  const parser = createSseParser()
  let usage: Usage | undefined
  let finished = false
  const emit = (events: StreamEvent[]) => {
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

/**
 * Upstream body -> client ReadableStream, piped chunk by chunk (never buffered whole). A client that goes
 * away cancels the stream, which destroys the upstream body and with it the upstream socket.
 */
export function pipeStream(body: Readable, iterator: AsyncIterator<Buffer>, first: Buffer | undefined, transform: StreamTransform, onDone: (outcome: StreamOutcome) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()
  let pending = first
  let done = false
  const finish = (outcome: StreamOutcome) => {
    if (done) return
    done = true
    onDone(outcome)
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        for (;;) {
          const next = pending ? { done: false as const, value: pending } : await iterator.next()
          pending = undefined
          if (next.done) {
            const tail = transform.end()
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
