import type { StreamEncoder, StreamEncoderOptions, StreamEvent } from 'model-proxy'
import { finishToGenerate } from './map-finish-reason.ts'
import { usageToGenerate } from './usage.ts'
import { encodeGenerateError } from './error.ts'
import { responseId } from './ids.ts'
import { signatureToClient } from 'model-proxy/internal'
import { createToolCallSequencer } from 'model-proxy/internal'

type Raw = Record<string, any>

/**
 * Canonical events -> GenerateContentResponse chunks, as SSE (`alt=sse`) or as one JSON array streamed
 * element by element. The format has no partial function arguments: a call is buffered and sent whole.
 */
export function createGenerateStreamEncoder(options: StreamEncoderOptions): StreamEncoder {
  const sse = options.sse !== false
  const id = responseId()
  let count = 0
  let done = false
  let call: { id: string; name: string; args: string; signature?: string } | undefined
  let pendingSignature: string | undefined
  // A model turn's first functionCall always carries a slot value (see partsToGenerate).
  let firstCall = true
  const sequence = createToolCallSequencer()

  const emit = (parts: Raw[], extra: Raw = {}) => {
    const chunk = { candidates: [{ content: { role: 'model', parts }, index: 0, ...extra.candidate }], modelVersion: options.model, responseId: id, ...extra.top }
    const json = JSON.stringify(chunk)
    const out = sse ? `data: ${json}\n\n` : `${count === 0 ? '[' : ',\r\n'}${json}`
    count++
    return out
  }
  const flushCall = () => {
    if (!call) return ''
    let args: unknown = {}
    try { args = JSON.parse(call.args || '{}') } catch {}
    const part: Raw = { functionCall: { id: call.id, name: call.name, args } }
    const signature = call.signature ?? (firstCall ? signatureToClient('generate', {}, true) : undefined)
    if (signature) part.thoughtSignature = signature
    firstCall = false
    call = undefined
    return emit([part])
  }

  const push = (event: StreamEvent): string => {
    switch (event.type) {
      case 'start': return ''
      case 'text': {
        const part: Raw = { text: event.delta }
        if (pendingSignature) { part.thoughtSignature = pendingSignature; pendingSignature = undefined }
        return flushCall() + emit([part])
      }
      case 'thinking': {
        const signature = signatureToClient('generate', event)
        const text = event.redacted ? '' : event.delta
        if (text) return flushCall() + emit([{ text, thought: true, ...(signature && { thoughtSignature: signature }) }])
        if (!signature) return ''
        // Gemini's bare signature belongs on the part after it; another vendor's signs the thinking before.
        if (event.origin === 'generate') { pendingSignature = signature; return '' }
        return flushCall() + emit([{ text: '', thought: true, thoughtSignature: signature }])
      }
      case 'tool_call_start': {
        const out = flushCall()
        call = { id: event.id, name: event.name, args: '', signature: pendingSignature }
        pendingSignature = undefined
        return out
      }
      case 'tool_call_delta':
        // A delta without its start still keeps its arguments.
        call ??= { id: `call_${event.index}`, name: '', args: '' }
        call.args += event.delta
        return ''
      case 'finish':
        done = true
        return flushCall() + emit([], { candidate: { finishReason: finishToGenerate(event.reason) }, top: event.usage ? { usageMetadata: usageToGenerate(event.usage) } : {} })
      case 'error': {
        done = true
        const json = JSON.stringify(encodeGenerateError({ status: event.status, message: event.message }))
        return sse ? `data: ${json}\n\n` : `${count++ === 0 ? '[' : ',\r\n'}${json}`
      }
    }
  }

  return {
    push(event: StreamEvent): string {
      if (done) return ''
      let out = ''
      for (const next of sequence(event)) out += push(next)
      return out
    },
    end: () => sse ? '' : count === 0 ? '[]' : ']',
  }
}
