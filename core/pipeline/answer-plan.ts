import type { WireCodec, WireFormat } from '../canonical/codec.ts'
import type { ProviderDef } from '../provider/provider.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'

/** A client-side encoding other than the inbound format's codec (e.g. the legacy completions shape). */
export type ClientEncoding = Pick<WireCodec, 'response' | 'stream'>

/** How the client wants its answer framed (what an endpoint passes to `runPipeline`). */
export interface RunOptions {
  /** generateContent clients without `alt=sse` get a JSON-array stream. */
  sse?: boolean
  /** Encode the answer with this instead of the inbound format's codec (always translates). */
  client?: ClientEncoding
}

/** Everything that decides how one attempt's upstream answer becomes the client's. */
export interface AnswerPlan {
  /** The format the upstream answers in. */
  upstream: WireFormat
  /** The model name the upstream was asked for (the client sees its own name). */
  upstreamModel: string
  /** Stream framing: SSE, or (generateContent without `alt=sse`) a JSON array. */
  sse: boolean
  /** An encoding other than the inbound format's codec (e.g. the legacy completions shape). */
  client?: ClientEncoding
  /** The upstream's answer is already in the client's format and framing: no decode, no encode. */
  passthrough: boolean
}

/**
 * Whether the upstream's bytes can be the client's answer (the model name aside): same wire format, no
 * other client encoding, a provider that does not wrap its format, and for streams the same framing.
 */
export function isPassthrough(request: ProxyRequest, provider: Pick<ProviderDef, 'format' | 'passthrough'>, options: RunOptions): boolean {
  return provider.format === request.inbound && !options.client && provider.passthrough !== false && (!request.stream || options.sse !== false)
}

export function planAnswer(request: ProxyRequest, provider: Pick<ProviderDef, 'format' | 'passthrough'>, upstreamModel: string, options: RunOptions): AnswerPlan {
  return { upstream: provider.format, upstreamModel, sse: options.sse ?? true, client: options.client, passthrough: isPassthrough(request, provider, options) }
}
