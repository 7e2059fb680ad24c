import type { WireFormat } from '../canonical/codec.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import type { ClientBody } from '../json/index.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { clampReasoning } from '../canonical/reasoning.ts'
import { droppedFields } from '../canonical/dropped.ts'
import { hasSignatureSlots, replaysEnvelopes } from '../canonical/signature-slots.ts'
import { envelopeMarker } from '../canonical/signature.ts'
import { JsonBody } from '../json/index.ts'
import { fitReplay } from '../canonical/replay-fit.ts'
import { fitRequest } from '../canonical/request-rules.ts'
import { checkCandidates } from '../canonical/candidates.ts'

/** Whether a same-format body replays our signature envelopes: a byte search first, the parse only when the marker may be there. */
function replaysEnvelopesIn(request: ProxyRequest, format: WireFormat): boolean {
  if (!hasSignatureSlots(format)) return false
  const lazy = request.clientBody && !request.clientBody.parsed ? request.clientBody : undefined
  if (lazy && !lazy.mayContain(envelopeMarker)) return false
  return replaysEnvelopes(format, request.body)
}

/**
 * The body sent upstream. Same format in and out: the client's body untouched except the model name
 * (fields we do not know survive). Otherwise: decode once to canonical, encode to the upstream format.
 */
export function buildUpstreamBody(kernel: ProxyKernel, request: ProxyRequest, upstream: WireFormat, upstreamModel: string): JsonBody {
  // Written anew, a body copies parts this client key's earlier bodies wrote, and the client's long strings.
  const writing = { scope: request.clientKey ?? '', client: request.clientBody }
  const body = (value: Record<string, unknown> | ClientBody) => new JsonBody(value, writing)
  // The codec says where its format names the model (WireCodec.modelIn).
  const modelInBody = kernel.formats.get(upstream)?.modelIn !== 'url'
  // A replay of what the proxy translated from another vendor (signature envelopes) goes through the
  // codecs, which keep the vendor's own signatures only: it would reject the others.
  if (upstream === request.inbound && !replaysEnvelopesIn(request, upstream)) {
    request.dropped = undefined
    // Nobody has read the whole body: it goes as the client's bytes unless the model name must change,
    // or a top-level key is written twice (the proxy read the last, as JSON.parse does; an upstream's
    // parser may keep the first: written from the value, each key goes once).
    const lazy = request.clientBody && !request.clientBody.parsed ? request.clientBody : undefined
    if (lazy && !lazy.repeats() && (!modelInBody || lazy.field('model') === upstreamModel)) return body(lazy)
    if (!modelInBody) return body(request.body)
    return body(request.body.model === upstreamModel ? request.body : { ...request.body, model: upstreamModel })
  }
  const target = kernel.formats.get(upstream)
  const source = kernel.formats.get(request.inbound)
  if (!target || !source) throw new ProxyError(501, `no translation from ${request.inbound} to ${upstream} is installed`, 'server_error')
  request.canonical ??= source.request.decode(request.body)
  checkCandidates(request.canonical, request.inbound, upstream)
  const info = kernel.modelInfo.get(upstreamModel)
  const reasoning = clampReasoning(request.canonical.reasoning, info?.thinking)
  // A replay whose thinking lost its signature first (replay-fit.ts), then the upstream vendor's own request
  // rules (stop-sequence limits, what thinking excludes) come last (request-rules.ts).
  const replay = fitReplay({ ...request.canonical, model: upstreamModel, stream: request.stream, ...(reasoning && { reasoning }) }, request.inbound, upstream)
  const fitted = fitRequest(replay.request, upstream, info?.maxOutput)
  const encoded = target.request.encode(fitted.request)
  if (modelInBody) encoded.model = upstreamModel
  request.dropped = droppedFields(request.canonical, request.inbound, upstream, fitted.adapted, upstreamModel)
  if (replay.dropped) request.dropped.push(replay.dropped)
  if (request.dropped.length) kernel.logger.debug(`request ${request.id}: ${request.inbound} -> ${upstream} dropped ${request.dropped.join(', ')}`)
  return body(encoded)
}

