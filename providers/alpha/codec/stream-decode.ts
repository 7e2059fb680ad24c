import type { SseEvent, StreamDecoder, FinishReason, StreamEvent, Usage } from 'model-proxy'
import { blockedPrompt, finishFromGenerate } from './map-finish-reason.ts'
import { usageFromGenerate } from './usage.ts'
import { statusForGenerateError } from './error.ts'
import { callId } from './ids.ts'
import { groundingFrom, placeCitation } from './grounding.ts'

type Raw = Record<string, any>

/** One candidate's running state (`candidateCount > 1` streams several, each chunk naming its `index`). */
interface CandidateState {
  open?: { kind: 'text' | 'thinking'; index: number }
  reason?: unknown
  sawToolCall: boolean
  /** Its text runs (canonical index, where each starts in the joined text) and its latest grounding. */
  texts: Array<{ index: number; at: number; part: { text: string } }>
  grounding?: unknown
}

/**
 * Each SSE event is a whole GenerateContentResponse chunk: text arrives as delta parts, a functionCall
 * whole in one part. The finish is held until the end so the last usage chunk is merged in. Parts of
 * candidates other than the first are tagged with their `choice`.
 */
export function createGenerateStreamDecoder(): StreamDecoder {
  let started = false
  let ended = false
  // A finish reason, a blocked prompt or an error chunk: the stream is whole.
  let terminal = false
  // An error chunk ends the answer; after a finish reason more chunks may still come (usage, grounding).
  let failed = false
  let next = 0
  const candidates = new Map<number, CandidateState>()
  let blockedFinish = false
  let responseKey = ''
  let usage: Usage | undefined
  const stateOf = (choice: number) => {
    let state = candidates.get(choice)
    if (!state) candidates.set(choice, state = { sawToolCall: false, texts: [] })
    return state
  }
  const run = (state: CandidateState, kind: 'text' | 'thinking') => {
    if (state.open?.kind !== kind) state.open = { kind, index: next++ }
    return state.open.index
  }
  const finishOf = (state: CandidateState | undefined): FinishReason => finishFromGenerate(state?.reason, state?.sawToolCall ?? false)
  /** Grounding comes with the last chunks and may repeat: what the last one says goes out before the finish. */
  const ground = (): StreamEvent[] => {
    const out: StreamEvent[] = []
    for (const [choice, state] of candidates) {
      if (!state.grounding) continue
      const joined = state.texts.map(run => run.part.text).join('')
      const grounding = groundingFrom(state.grounding, joined, `${responseKey}_${choice}`)
      // Citations first, while the text they cite may still be open in the client's stream; then the searches.
      for (const { start, end, citation } of grounding.citations) {
        const place = placeCitation(state.texts, start, end)
        if (place) out.push({ type: 'citation', index: state.texts[place.slot]!.index, citation: { ...citation, start: place.start, end: place.end } })
      }
      for (const search of grounding.searches) out.push({ type: 'web_search', index: next++, search })
    }
    return out
  }
  const close = (): StreamEvent[] => {
    if (ended) return []
    ended = true
    const grounded = ground()
    const finish: FinishReason = blockedFinish ? 'content_filter' : finishOf(candidates.get(0))
    const last = Math.max(0, ...candidates.keys())
    const choices = last > 0 ? Array.from({ length: last + 1 }, (_, choice) => choice === 0 ? finish : finishOf(candidates.get(choice))) : undefined
    return [...grounded, { type: 'finish', reason: finish, ...(usage && { usage }), ...(choices && { choices }) }]
  }
  const decodeCandidate = (candidate: Raw, out: StreamEvent[]) => {
    const choice = typeof candidate?.index === 'number' && candidate.index > 0 ? candidate.index : 0
    const state = stateOf(choice)
    const tag = choice ? { choice } : {}
    for (const part of (Array.isArray(candidate?.content?.parts) ? candidate.content.parts : []) as Raw[]) {
      const signature = typeof part.thoughtSignature === 'string' ? part.thoughtSignature : undefined
      if (part.thought === true) {
        out.push({ type: 'thinking', index: run(state, 'thinking'), delta: String(part.text ?? ''), origin: 'generate', ...(signature && { signature }), ...tag })
        continue
      }
      if (signature) {
        out.push({ type: 'thinking', index: next++, delta: '', signature, origin: 'generate', ...tag })
        state.open = undefined
      }
      if (typeof part.text === 'string' && part.text) {
        const index = run(state, 'text')
        const last = state.texts.at(-1)
        if (last?.index === index) last.part.text += part.text
        else state.texts.push({ index, at: state.texts.reduce((sum, run) => sum + run.part.text.length, 0), part: { text: part.text } })
        out.push({ type: 'text', index, delta: part.text, ...tag })
      }
      else if (part.functionCall?.name) {
        state.sawToolCall = true
        const index = next++
        state.open = undefined
        out.push({ type: 'tool_call_start', index, id: String(part.functionCall.id ?? callId()), name: part.functionCall.name, ...tag })
        out.push({ type: 'tool_call_delta', index, delta: JSON.stringify(part.functionCall.args ?? {}), ...tag })
      }
    }
    if (candidate?.finishReason) {
      state.reason = candidate.finishReason
      terminal = true
    }
    if (candidate?.groundingMetadata) state.grounding = candidate.groundingMetadata
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
        terminal = true
        failed = true
        return [{ type: 'error', status: statusForGenerateError(chunk.error), message: String(chunk.error.message ?? 'upstream stream error'), ...(usage && { usage }) }]
      }
      const out: StreamEvent[] = []
      if (!started) {
        started = true
        responseKey = String(chunk.responseId ?? '') || callId()
        out.push({ type: 'start', id: String(chunk.responseId ?? ''), model: String(chunk.modelVersion ?? '') })
      }
      const blocked = blockedPrompt(chunk.promptFeedback)
      if (blocked && !chunk.candidates?.length) {
        out.push({ type: 'text', index: next++, delta: blocked.text, refusal: true })
        blockedFinish = true
        terminal = true
      }
      if (Array.isArray(chunk.candidates)) for (const candidate of chunk.candidates) decodeCandidate(candidate, out)
      usage = usageFromGenerate(chunk.usageMetadata) ?? usage
      return out
    },
    end: close,
    terminated: () => terminal,
    complete: () => failed,
  }
}
