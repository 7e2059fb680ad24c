import { tokenCount } from '../canonical/token-count.ts'
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
 * the client was given. Counts that are none (see `readableUsage`) are estimated too.
 */
export function settledUsage(promptTokens: number, reported: Usage | undefined, partial: boolean, deliveredChars: number): Usage {
  const output = Math.ceil(deliveredChars / charsPerToken)
  const read = reported && readableUsage(reported, promptTokens, output)
  if (read && !partial) return read
  if (read) return { ...read, outputTokens: Math.max(read.outputTokens, output), estimated: true }
  return { inputTokens: promptTokens, outputTokens: output, estimated: true }
}

const countFields = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedInputTokens', 'cacheCreationInputTokens', 'reasoningTokens'] as const

/**
 * The reported usage as counts every reader can add up: the codecs copy the upstream's values as they
 * came, and a string would be concatenated into a key's token window, a negative one would refund a
 * budget. A prompt or output that is no count is estimated, any other such field left out; either way
 * the record says `estimated`. The same object when every count is one (the usual case).
 */
function readableUsage(reported: Usage, promptTokens: number, outputTokens: number): Usage {
  let usage: Usage | undefined
  for (const field of countFields) {
    const value = reported[field]
    if (value === undefined || (typeof value === 'number' && tokenCount(value) === value)) continue
    usage ??= { ...reported, estimated: true }
    const count = tokenCount(value)
    if (count !== undefined) usage[field] = count
    else if (field === 'inputTokens') usage.inputTokens = promptTokens
    else if (field === 'outputTokens') usage.outputTokens = outputTokens
    else delete usage[field]
  }
  return usage ?? reported
}
