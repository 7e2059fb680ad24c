import type { SseEvent, StreamDecoder, FinishReason, StreamEvent, Usage } from 'model-proxy'
import { ChunkTemplate } from 'model-proxy/kit/codec'
import { finishFromChat } from './map-finish-reason.ts'
import { usageFromChat } from './usage.ts'
import { statusForChatError } from './error.ts'
import { citationsFromChat } from './annotations.ts'

type Raw = Record<string, any>

/** One choice's running state: its open text/thinking run, its tool calls by the chunk's `index`, its finish. */
interface ChoiceState { open?: { kind: 'text' | 'thinking' | 'refusal'; index: number }; text?: number; tools: Map<number, number>; finish?: FinishReason }

/**
 * chat.completion.chunk SSE -> canonical events. The finish reason is held until `[DONE]` (or the end)
 * because usage arrives in a later chunk with empty choices (`stream_options.include_usage`). With
 * `n > 1` every chunk names its choice: each keeps its own runs and tool calls, tagged `choice`.
 */
export function createChatStreamDecoder(options: { chunkTemplates?: boolean } = {}): StreamDecoder {
  const templates = options.chunkTemplates !== false
  let started = false
  let next = 0
  const choices = new Map<number, ChoiceState>()
  // Calls whose arguments never came: they end as `{}`, as a call without arguments reads everywhere.
  const noArgs = new Map<number, number>()
  let usage: Usage | undefined
  let ended = false
  // `[DONE]`, an error chunk or a finish reason: what came after it, if anything, is no part of the answer.
  let terminal = false
  // `[DONE]` or an error chunk: nothing more belongs to the answer (after a finish reason the usage chunk may).
  let complete = false

  const stateOf = (choice: number) => {
    let state = choices.get(choice)
    if (!state) choices.set(choice, state = { tools: new Map() })
    return state
  }
  const run = (state: ChoiceState, kind: 'text' | 'thinking' | 'refusal') => {
    if (state.open?.kind !== kind) state.open = { kind, index: next++ }
    if (kind === 'text') state.text = state.open.index
    return state.open.index
  }
  const close = (): StreamEvent[] => {
    if (ended) return []
    ended = true
    const empty: StreamEvent[] = [...noArgs].map(([index, choice]) => ({ type: 'tool_call_delta', index, delta: '{}', ...(choice ? { choice } : {}) }))
    const reason = choices.get(0)?.finish ?? 'stop'
    const many = [...choices.keys()].some(choice => choice > 0)
    const reasons = many ? Array.from({ length: Math.max(...choices.keys()) + 1 }, (_, choice) => choices.get(choice)?.finish ?? 'stop') : undefined
    return [...empty, { type: 'finish', reason, ...(usage && { usage }), ...(reasons && { choices: reasons }) }]
  }
  const decodeChoice = (raw: Raw, out: StreamEvent[]) => {
    const choice = typeof raw?.index === 'number' && raw.index > 0 ? raw.index : 0
    const state = stateOf(choice)
    const tag = choice ? { choice } : {}
    const delta = raw?.delta
    if (delta && typeof delta === 'object') {
      const reasoning = delta.reasoning_content ?? delta.reasoning
      if (typeof reasoning === 'string' && reasoning) out.push({ type: 'thinking', index: run(state, 'thinking'), delta: reasoning, ...tag })
      // The common event of a stream, built without spreading the (usually empty) choice tag.
      if (typeof delta.content === 'string' && delta.content) out.push(choice ? { type: 'text', index: run(state, 'text'), delta: delta.content, choice } : { type: 'text', index: run(state, 'text'), delta: delta.content })
      if (typeof delta.refusal === 'string' && delta.refusal) out.push({ type: 'text', index: run(state, 'refusal'), delta: delta.refusal, refusal: true, ...tag })
      // A search model's citations come after the text they cite (its offsets count the whole content).
      if (Array.isArray(delta.annotations)) for (const citation of citationsFromChat(delta.annotations)) out.push({ type: 'citation', index: state.text ?? run(state, 'text'), citation })
      if (Array.isArray(delta.tool_calls)) {
        for (const call of delta.tool_calls) {
          const key = typeof call?.index === 'number' ? call.index : state.tools.size
          let index = state.tools.get(key)
          if (index === undefined) {
            index = next++
            state.tools.set(key, index)
            noArgs.set(index, choice)
            state.open = undefined
            out.push({ type: 'tool_call_start', index, id: String(call.id ?? `call_${index}`), name: String(call.function?.name ?? ''), ...tag })
          }
          const args = call.function?.arguments
          if (typeof args === 'string' && args) {
            noArgs.delete(index)
            out.push({ type: 'tool_call_delta', index, delta: args, ...tag })
          }
        }
      }
    }
    if (raw?.finish_reason) {
      state.finish = finishFromChat(raw.finish_reason)
      terminal = true
    }
  }

  // The last plain text chunk around its content string (core/canonical/chunk-template.ts): most chunks
  // of a stream differ from it only inside that string and decode to one text event without JSON.parse.
  let template: ChunkTemplate | undefined

  return {
    push(event: SseEvent): StreamEvent[] {
      if (ended) return []
      const data = event.data
      if (template) {
        const text = template.delta(data)
        if (text !== undefined) return text ? [{ type: 'text', index: run(stateOf(0), 'text'), delta: text }] : []
      }
      if (data === '[DONE]' || data.trim() === '[DONE]') {
        terminal = true
        complete = true
        return close()
      }
      let chunk: Raw
      try { chunk = JSON.parse(data) } catch { return [] }
      if (!chunk || typeof chunk !== 'object') return []
      const out: StreamEvent[] = []
      if (chunk.error) {
        ended = true
        terminal = true
        complete = true
        return [{ type: 'error', status: statusForChatError(chunk.error), message: String(chunk.error.message ?? 'upstream stream error'), errorType: chunk.error.type, ...(usage && { usage }) }]
      }
      if (!started) {
        started = true
        out.push({ type: 'start', id: String(chunk.id ?? ''), model: String(chunk.model ?? '') })
      }
      const chunkUsage = usageFromChat(chunk.usage)
      usage = chunkUsage ?? usage
      if (Array.isArray(chunk.choices)) for (const raw of chunk.choices) decodeChoice(raw, out)
      template = templates && isPlainText(chunk, out, chunkUsage) ? ChunkTemplate.of(data, '"content":"', out[0] as Extract<StreamEvent, { type: 'text' }>) : undefined
      return out
    },
    end: close,
    terminated: () => terminal,
    complete: () => complete,
  }
}

/**
 * A chunk whose whole effect is one text delta of choice 0: no finish, no usage, no other choice, no
 * tool call (and not the first chunk: that one also starts the stream). Such a chunk can be a template.
 */
function isPlainText(chunk: Raw, out: StreamEvent[], usage: Usage | undefined): boolean {
  if (out.length !== 1 || usage || !Array.isArray(chunk.choices) || chunk.choices.length !== 1) return false
  const event = out[0]!
  const choice = chunk.choices[0]
  return event.type === 'text' && !event.choice && !event.refusal && !choice?.finish_reason && !Array.isArray(choice?.delta?.tool_calls)
}
