import type { WireFormat } from '../canonical/codec.ts'
import type { Usage } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'

/**
 * The usage a whole answer in the upstream's format reports, read by its codec (the answer's bytes go
 * to the client as they came). An answer the codec cannot read reports none: it is estimated.
 */
export function usageOfAnswer(kernel: ProxyKernel, format: WireFormat, answer: Record<string, unknown>): Usage | undefined {
  const codec = kernel.formats.get(format)
  if (!codec) return undefined
  try {
    return codec.response.decode(answer).usage
  } catch {
    return undefined
  }
}

/** A whole answer's JSON object, or undefined when it is none (a gateway's HTML page, a cut or garbled body). */
export function answerObject(text: string): Record<string, unknown> | undefined {
  try {
    const json: unknown = JSON.parse(text)
    return json && typeof json === 'object' && !Array.isArray(json) ? json as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}
