import type { SseEvent, StreamDecoder, FinishReason, StreamEvent, Usage } from 'model-proxy'
import { finishFromChat } from './map-finish-reason.ts'
import { usageFromChat } from './usage.ts'
import { statusForErrorType } from './error.ts'

type Raw = Record<string, any>

/**
 * chat.completion.chunk SSE -> canonical events. The finish reason is held until `[DONE]` (or the end)
 * because usage arrives in a later chunk with empty choices (`stream_options.include_usage`).
 */
export function createChatStreamDecoder(): StreamDecoder {
  let started = false
  let next = 0
  let open: { kind: 'text' | 'thinking' | 'refusal'; index: number } | undefined
  const toolIndexes = new Map<number, number>()
  // Calls whose arguments never came: they end as `{}`, as a call without arguments reads everywhere.
  const noArgs = new Set<number>()
  let finish: FinishReason | undefined
  let usage: Usage | undefined
  let ended = false

  const run = (kind: 'text' | 'thinking' | 'refusal') => {
    if (open?.kind !== kind) open = { kind, index: next++ }
    return open.index
  }
  const close = (): StreamEvent[] => {
    if (ended) return []
    ended = true
    const empty: StreamEvent[] = [...noArgs].map(index => ({ type: 'tool_call_delta', index, delta: '{}' }))
    return [...empty, { type: 'finish', reason: finish ?? 'stop', ...(usage && { usage }) }]
  }

  return {
    push(event: SseEvent): StreamEvent[] {
      if (ended) return []
      if (event.data.trim() === '[DONE]') return close()
      let chunk: Raw
      try { chunk = JSON.parse(event.data) } catch { return [] }
      if (!chunk || typeof chunk !== 'object') return []
      const out: StreamEvent[] = []
      if (chunk.error) {
        ended = true
        const status = typeof chunk.error.code === 'number' ? chunk.error.code : statusForErrorType(chunk.error.type)
        return [{ type: 'error', status, message: String(chunk.error.message ?? 'upstream stream error'), errorType: chunk.error.type }]
      }
      if (!started) {
        started = true
        out.push({ type: 'start', id: String(chunk.id ?? ''), model: String(chunk.model ?? '') })
      }
      usage = usageFromChat(chunk.usage) ?? usage
      // With `n > 1` every chunk names its choice: the stream carries the first one.
      const choice = Array.isArray(chunk.choices) ? chunk.choices.find((c: Raw) => (c?.index ?? 0) === 0) : undefined
      const delta = choice?.delta
      if (delta && typeof delta === 'object') {
        const reasoning = delta.reasoning_content ?? delta.reasoning
        if (typeof reasoning === 'string' && reasoning) out.push({ type: 'thinking', index: run('thinking'), delta: reasoning })
        if (typeof delta.content === 'string' && delta.content) out.push({ type: 'text', index: run('text'), delta: delta.content })
        if (typeof delta.refusal === 'string' && delta.refusal) out.push({ type: 'text', index: run('refusal'), delta: delta.refusal, refusal: true })
        if (Array.isArray(delta.tool_calls)) {
          for (const call of delta.tool_calls) {
            const key = typeof call?.index === 'number' ? call.index : toolIndexes.size
            let index = toolIndexes.get(key)
            if (index === undefined) {
              index = next++
              toolIndexes.set(key, index)
              noArgs.add(index)
              open = undefined
              out.push({ type: 'tool_call_start', index, id: String(call.id ?? `call_${index}`), name: String(call.function?.name ?? '') })
            }
            const args = call.function?.arguments
            if (typeof args === 'string' && args) {
              noArgs.delete(index)
              out.push({ type: 'tool_call_delta', index, delta: args })
            }
          }
        }
      }
      if (choice?.finish_reason) finish = finishFromChat(choice.finish_reason)
      return out
    },
    end: close,
  }
}
