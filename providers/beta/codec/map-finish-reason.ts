import type { FinishReason } from 'model-proxy'

/** Messages `stop_reason` -> canonical. */
export function finishFromMessages(reason: unknown): FinishReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded': return 'length'
    case 'tool_use': return 'tool_calls'
    case 'refusal': return 'content_filter'
    default: return 'stop'
  }
}

/** Canonical -> messages `stop_reason`; a matched stop sequence has its own name. */
export function finishToMessages(reason: FinishReason, stopSequence?: string): string {
  switch (reason) {
    case 'length': return 'max_tokens'
    case 'tool_calls': return 'tool_use'
    case 'content_filter': return 'refusal'
    default: return stopSequence ? 'stop_sequence' : 'end_turn'
  }
}
