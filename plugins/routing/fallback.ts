import { defineRequestState, type ProxyKernel, type Candidate, type ProxyRequest } from 'model-proxy'
import { ownValue } from 'model-proxy/kit/guards'
import { countRequestTokens } from 'model-proxy/kit/tokens'
import { isQuotaError } from './cooldown.ts'
import type { Stage } from './route-state.ts'
import { keyRefusal } from './key-refusal.ts'

/**
 * The request's model chain: what route-resolve chose, then `fallbacks` of the client's model (or of the
 * chosen one), without the models its client key may not use (logged).
 */
export function buildStages(kernel: ProxyKernel, request: ProxyRequest, first: Candidate[]): Stage[] {
  const served = request.servedModel ?? request.model
  const chain = ownValue(kernel.config.fallbacks, request.model) ?? ownValue(kernel.config.fallbacks, served) ?? []
  const stages: Stage[] = [{ model: served, candidates: first }]
  for (const model of chain) {
    if (stages.some(stage => stage.model === model)) continue
    const refused = keyRefusal(kernel, request.clientKey, model)
    if (refused) {
      kernel.logger.info(`request ${request.id}: fallback ${model} skipped: ${refused}`)
      continue
    }
    stages.push({ model, candidates: kernel.models.get(model) ?? [] })
  }
  return stages
}

/** Failures another model may fix: quota, server errors, timeouts, no connection. Not the client's own mistakes. */
export function fallbackWorthy(status: number, message?: string): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500 || isQuotaError(status, message)
}

/** The largest context window the catalog knows among a stage's upstream models; undefined = unknown (assume it fits). */
export function contextWindowOf(kernel: ProxyKernel, stage: Stage): number | undefined {
  let largest: number | undefined
  for (const candidate of stage.candidates) {
    const window = kernel.modelInfo.get(candidate.upstreamModel)?.contextWindow
    if (window && (largest === undefined || window > largest)) largest = window
  }
  return largest
}

/** Input tokens of the request, counted once (decoding it to canonical if nobody has yet). */
export async function requestTokens(kernel: ProxyKernel, request: ProxyRequest): Promise<number> {
  const cached = tokenCounts.get(request)
  if (cached !== undefined) return cached
  const codec = kernel.formats.get(request.inbound)
  if (!codec) return 0
  request.canonical ??= codec.request.decode(request.body)
  const tokens = await countRequestTokens(request.canonical)
  tokenCounts.set(request, tokens)
  return tokens
}
const tokenCounts = defineRequestState<number>('routing token count')

/** Whether the request fits the stage's model (the catalog's context window), with the reason when not. */
export async function fitsStage(kernel: ProxyKernel, request: ProxyRequest, stage: Stage): Promise<string | undefined> {
  const window = contextWindowOf(kernel, stage)
  if (window === undefined) return
  const tokens = await requestTokens(kernel, request)
  return tokens > window ? `${tokens} input tokens exceed ${stage.model}'s context window of ${window}` : undefined
}
