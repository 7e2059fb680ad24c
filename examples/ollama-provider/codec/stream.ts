import type { StreamDecoder, StreamEncoder, StreamEncoderOptions, StreamEvent, StreamFrame, Usage } from 'model-proxy'
import { argumentsObject, type OllamaChunk } from './wire.ts'
import { finishReason, usageOf } from './response.ts'

/**
 * NDJSON lines -> canonical events. The codec says `framing: 'ndjson'`, so every frame is one line of
 * JSON. Thinking and text arrive as deltas; a tool call arrives whole, in one line.
 */
export function createStreamDecoder(): StreamDecoder {
  let next = 0
  let open: { kind: 'text' | 'thinking'; index: number } | undefined
  let started = false
  let ended = false
  let calledTools = false
  const run = (kind: 'text' | 'thinking') => {
    if (open?.kind !== kind) open = { kind, index: next++ }
    return open.index
  }
  return {
    push(frame: StreamFrame): StreamEvent[] {
      if (ended) return []
      let chunk: OllamaChunk
      try { chunk = JSON.parse(frame.data) } catch { return [] }
      if (typeof chunk.error === 'string') {
        ended = true
        return [{ type: 'error', status: 502, message: chunk.error }]
      }
      const out: StreamEvent[] = []
      if (!started) {
        started = true
        out.push({ type: 'start', id: `ollama-${crypto.randomUUID()}`, model: String(chunk.model ?? '') })
      }
      const message = chunk.message ?? {}
      if (message.thinking) out.push({ type: 'thinking', index: run('thinking'), delta: message.thinking })
      if (message.content) out.push({ type: 'text', index: run('text'), delta: message.content })
      for (const call of message.tool_calls ?? []) {
        const index = next++
        open = undefined
        calledTools = true
        out.push({ type: 'tool_call_start', index, id: `call_${index}`, name: String(call.function?.name ?? '') })
        out.push({ type: 'tool_call_delta', index, delta: JSON.stringify(call.function?.arguments ?? {}) })
      }
      if (chunk.done) {
        ended = true
        const usage = usageOf(chunk)
        out.push({ type: 'finish', reason: finishReason(chunk, calledTools), ...(usage && { usage }) })
      }
      return out
    },
    // A stream cut before its `done` line still ends with a finish (the pipeline reports usage it saw).
    end: () => {
      if (ended) return []
      ended = true
      return [{ type: 'finish', reason: 'stop' }]
    },
  }
}

/** Canonical events -> NDJSON lines (for a client that speaks Ollama). Tool calls go out whole, at the end. */
export function createStreamEncoder(options: StreamEncoderOptions): StreamEncoder {
  const calls = new Map<number, { name: string; arguments: string }>()
  const line = (fields: Record<string, unknown>) => `${JSON.stringify({ model: options.model, created_at: new Date().toISOString(), ...fields })}\n`
  const done = (reason: string, usage?: Usage) => {
    const toolCalls = [...calls.values()].map(call => ({ function: { name: call.name, arguments: argumentsObject(call.arguments) } }))
    const message = { role: 'assistant', content: '', ...(toolCalls.length && { tool_calls: toolCalls }) }
    return line({ message, done: true, done_reason: reason, prompt_eval_count: usage?.inputTokens ?? 0, eval_count: usage?.outputTokens ?? 0 })
  }
  return {
    push(event) {
      switch (event.type) {
        case 'text': return line({ message: { role: 'assistant', content: event.delta }, done: false })
        case 'thinking': return line({ message: { role: 'assistant', content: '', thinking: event.delta }, done: false })
        case 'tool_call_start': calls.set(event.index, { name: event.name, arguments: '' }); return ''
        case 'tool_call_delta': calls.get(event.index)!.arguments += event.delta; return ''
        case 'finish': return done(event.reason === 'length' ? 'length' : 'stop', event.usage)
        case 'error': return `${JSON.stringify({ error: event.message })}\n`
        default: return ''
      }
    },
    end: () => '',
  }
}
