import type { FinishReason } from 'model-proxy'

export type ResponseStatus = 'completed' | 'incomplete'
export interface WireFinish { status: ResponseStatus; incomplete_details: { reason: string } | null }

/**
 * A response's `status` + `incomplete_details.reason` -> canonical reason. The format has no
 * `tool_calls` status: a completed response that contains a function_call item is a tool-call turn.
 */
export function finishFromWire(status: unknown, incompleteReason: unknown, hasToolCall: boolean): FinishReason {
  // `steered`: the answer stopped at a safe boundary to take the client's new input (response.steer): not cut.
  if (status === 'incomplete' && incompleteReason !== 'steered') return incompleteReason === 'content_filter' ? 'content_filter' : 'length'
  return hasToolCall ? 'tool_calls' : 'stop'
}

/** Canonical reason -> `status` + `incomplete_details` of a response object. */
export function finishToWire(reason: FinishReason): WireFinish {
  switch (reason) {
    case 'length': return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }
    case 'content_filter': return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } }
    default: return { status: 'completed', incomplete_details: null }
  }
}
