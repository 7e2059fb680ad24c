import type { Candidate, ProxyKernel, RouteContext } from 'model-proxy'
import { ownValue } from 'model-proxy/kit/guards'
import { resolveRoute } from './resolve.ts'
import { requestTokens } from './fallback.ts'
import { keyRefusal } from './key-refusal.ts'

declare module '../../core/kernel/hooks.ts' {
  interface ProxyRequest {
    /** The `routing.rules` entry that chose this request's model (traces and logs name it). */
    rule?: string
  }
}

/**
 * `route-resolve`: the client's model from the index (the spec's path, synchronous), or, with
 * `routing.rules`, the first matching rule's model; a model nothing serves goes to the first of its
 * fallbacks that is served.
 */
export function resolveHook(kernel: ProxyKernel, ctx: RouteContext): void | Promise<void> {
  if (ctx.candidates.length) return
  const { request } = ctx
  if (!kernel.config.routing.rules.length) {
    ctx.candidates = ownList(kernel.models.get(request.model))
    if (!ctx.candidates.length) firstServedFallback(kernel, ctx)
    return
  }
  return resolveRoute(kernel, {
    model: request.model,
    inbound: request.inbound,
    body: request.body,
    headers: request.event.req.headers,
    clientKey: request.clientKey,
    clientKeyName: () => request.clientKey === undefined ? undefined : kernel.services.clientKeys?.nameOf(request.clientKey),
    modelRefusal: model => keyRefusal(kernel, request.clientKey, model),
    canonical: () => request.canonical ??= kernel.formats.get(request.inbound)!.request.decode(request.body),
    tokens: () => requestTokens(kernel, request),
  }).then((resolution) => {
    for (const why of resolution.skipped ?? []) kernel.warnLimited('routing-rule-skipped', `request ${request.id}: ${why}`)
    ctx.candidates = ownList(resolution.candidates)
    if (resolution.rule) {
      request.rule = resolution.rule.name
      ctx.rule = resolution.rule.name
      request.servedModel = resolution.model === request.model ? undefined : resolution.model
      kernel.logger.debug(`request ${request.id}: ${resolution.rule.name} -> ${resolution.model}`)
    }
    if (!ctx.candidates.length) firstServedFallback(kernel, ctx)
  })
}

/**
 * The request's own copy of a model's candidates: listeners after this one may narrow `ctx.candidates` in
 * place, which on the model index's list narrowed the model for every later request. A copy of a few
 * entries costs ~20 ns; freezing the index's lists instead sent every filter and map over them down V8's
 * slow path (~6x).
 */
const ownList = (list: Candidate[] | undefined): Candidate[] => list ? list.slice() : []

function firstServedFallback(kernel: ProxyKernel, ctx: RouteContext): void {
  for (const model of ownValue(kernel.config.fallbacks, ctx.request.model) ?? []) {
    const candidates = kernel.models.get(model)
    if (!candidates?.length) continue
    const refused = keyRefusal(kernel, ctx.request.clientKey, model)
    if (refused) {
      kernel.logger.info(`request ${ctx.request.id}: fallback ${model} skipped: ${refused}`)
      continue
    }
    ctx.candidates = ownList(candidates)
    ctx.request.servedModel = model
    return
  }
}
