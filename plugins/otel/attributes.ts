import type { WireFormat, Usage } from 'model-proxy'

/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions (still "development" there, so named
 * here rather than imported from the package's unstable entry) and the proxy's own routing attributes.
 */
export const genAi = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheWriteTokens: 'gen_ai.usage.cache_creation.input_tokens',
  conversation: 'gen_ai.conversation.id',
} as const

export const proxyAttr = {
  inbound: 'proxy.client.format',
  stream: 'proxy.stream',
  credential: 'proxy.credential.id',
  family: 'proxy.credential.family',
  upstreamFormat: 'proxy.upstream.format',
  attempt: 'proxy.attempt.number',
  action: 'proxy.attempt.action',
  attempts: 'proxy.attempts',
  rule: 'proxy.routing.rule',
  servedModel: 'proxy.routing.served_model',
  fallback: 'proxy.routing.fallback',
  failover: 'proxy.routing.failover',
  candidates: 'proxy.routing.candidates',
  cachedTokens: 'proxy.usage.cached_input_tokens',
  reasoningTokens: 'proxy.usage.reasoning_tokens',
  estimated: 'proxy.usage.estimated',
} as const

/** `gen_ai.operation.name` for a client endpoint: the spec's well-known values. */
export function operationOf(inbound: WireFormat, endpoint: string): string {
  if (endpoint === 'completions') return 'text_completion'
  return inbound === 'generate' ? 'generate_content' : 'chat'
}

/** Token attributes of a usage record (absent usage: none). */
export function usageAttributes(usage: Usage | undefined): Record<string, number | boolean> {
  if (!usage) return {}
  const out: Record<string, number | boolean> = { [genAi.inputTokens]: usage.inputTokens, [genAi.outputTokens]: usage.outputTokens }
  if (usage.cachedInputTokens) {
    out[genAi.cacheReadTokens] = usage.cachedInputTokens
    out[proxyAttr.cachedTokens] = usage.cachedInputTokens
  }
  if (usage.cacheCreationInputTokens) out[genAi.cacheWriteTokens] = usage.cacheCreationInputTokens
  if (usage.reasoningTokens) out[proxyAttr.reasoningTokens] = usage.reasoningTokens
  // The upstream reported none (or the answer was cut): the counts are the proxy's estimate.
  if (usage.estimated) out[proxyAttr.estimated] = true
  return out
}

type Body = Record<string, unknown>
const list = (value: unknown): Body[] => Array.isArray(value) ? value.filter((item): item is Body => !!item && typeof item === 'object') : []
const strings = (values: unknown[]) => values.filter((value): value is string => typeof value === 'string' && value !== '')

/** The finish reasons of a whole answer in the client's format, as that format spells them. */
export function finishReasonsOf(format: WireFormat, answer: Body | undefined): string[] {
  if (!answer) return []
  switch (format) {
    case 'chat': return strings(list(answer.choices).map(choice => choice.finish_reason))
    case 'messages': return strings([answer.stop_reason])
    case 'generate': return strings(list(answer.candidates).map(candidate => candidate.finishReason))
    case 'responses': {
      const details = answer.incomplete_details as Body | undefined
      return strings([answer.status === 'incomplete' ? details?.reason : answer.status])
    }
    // A plugin's own format: its answer shape is unknown here.
    default: return []
  }
}

/** `server.address` and `server.port` of the upstream URL (nothing for one that does not parse). */
export function serverAttributes(url: string): Record<string, string | number> {
  try {
    const parsed = new URL(url)
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80
    return { 'server.address': parsed.hostname, 'server.port': port }
  } catch {
    return {}
  }
}
