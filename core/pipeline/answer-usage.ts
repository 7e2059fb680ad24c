import type { WireFormat } from '../canonical/codec.ts'
import type { Usage } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'

/**
 * The usage a whole answer in the upstream's format reports, read by its codec (the answer's bytes go
 * to the client as they came). An answer the codec cannot read reports none: it is estimated.
 */
export function usageOfAnswer(kernel: ProxyKernel, format: WireFormat, text: string): Usage | undefined {
  const codec = kernel.formats.get(format)
  if (!codec) return undefined
  try {
    return codec.response.decode(JSON.parse(text)).usage
  } catch {
    return undefined
  }
}
