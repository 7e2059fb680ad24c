import type { SseEvent, StreamDecoder } from 'model-proxy'
import type { FinishReason, StreamEvent, Usage } from 'model-proxy'
import { blockedPrompt, finishFromGenerate } from './map-finish-reason.ts'
import { usageFromGenerate } from './usage.ts'
import { statusForGenerateError } from './error.ts'
import { callId } from './ids.ts'

type Raw = Record<string, any>

/**
 * Each SSE event is a whole GenerateContentResponse chunk: text arrives as delta parts, a functionCall
 * whole in one part. The finish is held until the end so the last usage chunk is merged in.
 */
export function createGenerateStreamDecoder(): StreamDecoder {
  let started = false
  let ended = false
  let next = 0
  let open: { kind: 'text' | 'thinking'; index: number } | undefined
  let reason: unknown
  let sawToolCall = false
  let blockedFinish = false
  let usage: Usage | undefined
  const run = (kind: 'text' | 'thinking') => {
    if (open?.kind !== kind) open = { kind, index: next++ }
    return open.index
  }
  const close = (): StreamEvent[] => {
    if (ended) return []
    ended = true
    const finish: FinishReason = blockedFinish ? 'content_filter' : finishFromGenerate(reason, sawToolCall)
    return [{ type: 'finish', reason: finish, ...(usage && { usage }) }]
  }
  return {
    push(event: SseEvent): StreamEvent[] {
      if (ended) return []
      let chunk: Raw
      try { chunk = JSON.parse(event.data) } catch { return [] }
      if (Array.isArray(chunk)) chunk = chunk[0]
      if (!chunk || typeof chunk !== 'object') return []
      if (chunk.response && typeof chunk.response === 'object') chunk = chunk.response
      if (chunk.error) {
        ended = true
        return [{ type: 'error', status: statusForGenerateError(chunk.error.status, chunk.error.code), message: String(chunk.error.message ?? 'upstream stream error') }]
      }
      const out: StreamEvent[] = []
      if (!started) {
        started = true
        out.push({ type: 'start', id: String(chunk.responseId ?? ''), model: String(chunk.modelVersion ?? '') })
      }
      const blocked = blockedPrompt(chunk.promptFeedback)
      if (blocked && !chunk.candidates?.length) {
        out.push({ type: 'text', index: next++, delta: blocked.text, refusal: true })
        open = undefined
        blockedFinish = true
      }
      // With candidateCount > 1 each chunk names its candidate: the stream carries the first one.
      const candidate = Array.isArray(chunk.candidates) ? chunk.candidates.find((c: Raw) => (c?.index ?? 0) === 0) : undefined
      for (const part of (Array.isArray(candidate?.content?.parts) ? candidate.content.parts : []) as Raw[]) {
        const signature = typeof part.thoughtSignature === 'string' ? part.thoughtSignature : undefined
        if (part.thought === true) {
          out.push({ type: 'thinking', index: run('thinking'), delta: String(part.text ?? ''), origin: 'generate', ...(signature && { signature }) })
          continue
        }
        if (signature) {
          out.push({ type: 'thinking', index: next++, delta: '', signature, origin: 'generate' })
          open = undefined
        }
        if (typeof part.text === 'string' && part.text) out.push({ type: 'text', index: run('text'), delta: part.text })
        else if (part.functionCall?.name) {
          sawToolCall = true
          const index = next++
          open = undefined
          out.push({ type: 'tool_call_start', index, id: String(part.functionCall.id ?? callId()), name: part.functionCall.name })
          out.push({ type: 'tool_call_delta', index, delta: JSON.stringify(part.functionCall.args ?? {}) })
        }
      }
      if (candidate?.finishReason) reason = candidate.finishReason
      usage = usageFromGenerate(chunk.usageMetadata) ?? usage
      return out
    },
    end: close,
  }
}
