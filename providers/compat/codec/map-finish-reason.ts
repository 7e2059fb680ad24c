import type { FinishReason } from 'model-proxy'

/** Chat `finish_reason` -> canonical. `function_call` is the legacy name of `tool_calls`. */
export function finishFromChat(reason: unknown): FinishReason {
  switch (reason) {
    case 'length': return 'length'
    case 'tool_calls':
    case 'function_call': return 'tool_calls'
    case 'content_filter': return 'content_filter'
    default: return 'stop'
  }
}

/** Canonical -> chat: the chat format has a name for every canonical reason. */
export const finishToChat = (reason: FinishReason): string => reason
