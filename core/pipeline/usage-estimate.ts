import type { Usage } from '../canonical/types.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'

/** About four characters per token, the rule of thumb every vendor's docs give. */
const charsPerToken = 4

/** The prompt's tokens, estimated from the size of the client's body (its bytes, never serialized again for this). */
export function promptTokensEstimate(request: Pick<ProxyRequest, 'body' | 'clientBytes'>): number {
  const size = request.clientBytes?.length ?? JSON.stringify(request.body).length
  return Math.ceil(size / charsPerToken)
}

/**
 * The usage a request is settled with: what the upstream reported when the answer ended whole. Else
 * (no usage came, or the answer was cut, failed or left by its client) an estimate of what was
 * delivered, labelled `estimated`: the reported counts where there are some, the output at least what
 * the client was given.
 */
export function settledUsage(promptTokens: number, reported: Usage | undefined, partial: boolean, deliveredChars: number): Usage {
  if (reported && !partial) return reported
  const output = Math.ceil(deliveredChars / charsPerToken)
  if (reported) return { ...reported, outputTokens: Math.max(reported.outputTokens, output), estimated: true }
  return { inputTokens: promptTokens, outputTokens: output, estimated: true }
}
