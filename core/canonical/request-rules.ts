import type { WireFormat } from './codec.ts'
import type { CanonicalRequest, Reasoning } from './types.ts'
import { effortBudget } from './reasoning.ts'

/** Canonical fields a vendor rule may trim or change on the way to an upstream. */
export type AdaptedField = 'stop' | 'temperature' | 'topP' | 'topK' | 'reasoning' | 'maxTokens'

/** How many stop sequences each upstream API takes (the others have no limit or no stop at all). */
export const stopLimit: Partial<Record<WireFormat, number>> = { chat: 4, generate: 5 }

/** The messages API: `max_tokens` when none is given, the smallest budget, the top_p floor with thinking on. */
export const messagesDefaults = { maxTokens: 8192, minBudget: 1024, minTopP: 0.95 }

/** The thinking budget the messages encoder sends for this reasoning (0 = off, undefined = not set). */
export function messagesBudget(reasoning: Reasoning | undefined): number | undefined {
  const budget = reasoning?.budgetTokens ?? (reasoning?.effort ? effortBudget[reasoning.effort] : undefined)
  if (budget === undefined || budget === 0) return budget
  return Math.max(budget < 0 ? effortBudget.medium : budget, messagesDefaults.minBudget)
}

/**
 * The messages API with thinking on refuses a forced tool choice, `top_k`, and a temperature or a
 * `top_p` below 0.95; the thinking budget must stay below `max_tokens`. A forced tool choice shapes the
 * answer the client waits for, so it wins over thinking; the sampling knobs give way to thinking.
 */
function fitMessages(request: CanonicalRequest, adapted: Set<AdaptedField>, maxOutput?: number): void {
  let budget = messagesBudget(request.reasoning)
  if (!budget) return
  const forced = request.toolChoice === 'required' || typeof request.toolChoice === 'object'
  if (forced) {
    delete request.reasoning
    adapted.add('reasoning')
    return
  }
  if (request.temperature !== undefined && request.temperature !== 1) { delete request.temperature; adapted.add('temperature') }
  if (request.topK !== undefined) { delete request.topK; adapted.add('topK') }
  if (request.topP !== undefined && request.topP < messagesDefaults.minTopP) { request.topP = messagesDefaults.minTopP; adapted.add('topP') }
  const given = request.maxTokens
  const asked = given ?? messagesDefaults.maxTokens
  if (budget < asked) return
  // The budget comes out of max_tokens: make room for it and keep the client's room for the answer,
  // within what the model can write at all.
  let max = budget + asked
  if (maxOutput !== undefined && max > maxOutput) {
    max = maxOutput
    budget = Math.max(max - asked, messagesDefaults.minBudget)
    if (budget >= max) {
      delete request.reasoning
      adapted.add('reasoning')
      return
    }
  }
  request.maxTokens = max
  const { effort: _effort, ...rest } = request.reasoning ?? {}
  request.reasoning = { ...rest, budgetTokens: budget }
  if (given !== undefined) adapted.add('maxTokens')
}

/**
 * A canonical request fitted to the upstream vendor's own request rules, and the canonical fields that
 * were trimmed or changed to get there (reported to the client in `x-proxy-dropped`). Pure: the input
 * is not modified.
 */
export function fitRequest(request: CanonicalRequest, upstream: WireFormat, maxOutput?: number): { request: CanonicalRequest; adapted: AdaptedField[] } {
  const out: CanonicalRequest = { ...request }
  const adapted = new Set<AdaptedField>()
  const limit = stopLimit[upstream]
  if (limit !== undefined && out.stop && out.stop.length > limit) {
    out.stop = out.stop.slice(0, limit)
    adapted.add('stop')
  }
  if (upstream === 'messages') fitMessages(out, adapted, maxOutput)
  return { request: out, adapted: [...adapted] }
}
