import type { AnswerPlan } from './answer-plan.ts'
import type { Usage } from '../canonical/types.ts'
import type { ProxyKernel } from '../kernel/kernel.ts'
import type { ProxyRequest } from '../kernel/hooks.ts'
import { ProxyError } from '../errors/proxy-error.ts'
import { keepsSignatures, rememberSignatures } from './signature-store.ts'
import { restoreNamespaces } from '../canonical/tool-namespaces.ts'

export interface TranslatedBody { body: Record<string, unknown>; usage?: Usage }

/** A complete upstream answer in the client's format, reporting the model the client asked for. */
export function translateResponse(kernel: ProxyKernel, request: ProxyRequest, plan: AnswerPlan, json: Record<string, unknown>): TranslatedBody {
  const { upstream, client } = plan
  const target = client ?? kernel.formats.get(request.inbound)
  const source = kernel.formats.get(upstream)
  if (plan.passthrough) {
    // The client sees only the name it asked for, in whichever fields its format echoes it (WireCodec.modelEcho).
    for (const field of source?.modelEcho ?? ['model']) if (field in json) json[field] = request.model
    const canonical = source?.response.decode(json)
    return { body: json, usage: canonical?.usage }
  }
  if (!target || !source) throw new ProxyError(501, `no translation from ${upstream} to ${request.inbound} is installed`, 'server_error')
  const canonical = source.response.decode(json)
  // Written long before the client can run its tools and send the results back.
  if (!client && keepsSignatures(request.inbound, upstream)) void rememberSignatures(kernel, canonical.parts)
  // Calls of grouped tools get their group back (the upstream knew them by a flat name).
  const answer = restoreNamespaces({ ...canonical, model: request.model }, request.canonical?.tools)
  return { body: target.response.encode(answer), usage: canonical.usage }
}
