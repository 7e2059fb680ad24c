import type { WireFormat } from '../canonical/codec.ts'
import type { ProxyKernel } from '../kernel.ts'
import type { ProxyRequest } from '../hooks.ts'
import { ProxyError } from '../http/errors.ts'
import { clampReasoning } from '../canonical/reasoning.ts'
import { droppedFields } from '../canonical/dropped.ts'

/** Formats whose body names the model (generateContent puts it in the URL instead); a plugin's encoder sets its own. */
const modelInBody: Partial<Record<WireFormat, boolean>> = { chat: true, responses: true, messages: true, generate: false }

/**
 * The body sent upstream. Same format in and out: the client's body untouched except the model name
 * (fields we do not know survive). Otherwise: decode once to canonical, encode to the upstream format.
 */
export function buildUpstreamBody(kernel: ProxyKernel, request: ProxyRequest, upstream: WireFormat, upstreamModel: string): Record<string, unknown> {
  if (upstream === request.inbound) {
    request.dropped = undefined
    if (!modelInBody[upstream]) return request.body
    return request.body.model === upstreamModel ? request.body : { ...request.body, model: upstreamModel }
  }
  const target = kernel.formats.get(upstream)
  const source = kernel.formats.get(request.inbound)
  if (!target || !source) throw new ProxyError(501, `no translation from ${request.inbound} to ${upstream} is installed`, 'server_error')
  request.canonical ??= source.request.decode(request.body)
  const reasoning = clampReasoning(request.canonical.reasoning, kernel.modelInfo.get(upstreamModel)?.thinking)
  const body = target.request.encode({ ...request.canonical, model: upstreamModel, stream: request.stream, ...(reasoning && { reasoning }) })
  if (modelInBody[upstream]) body.model = upstreamModel
  request.dropped = droppedFields(request.canonical, request.inbound, upstream)
  if (request.dropped.length) kernel.logger.debug(`request ${request.id}: ${request.inbound} -> ${upstream} dropped ${request.dropped.join(', ')}`)
  return body
}
