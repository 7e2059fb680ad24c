import { defineRequestState, endedStatus, type ProxyKernel, type RouteContext, requestField } from 'model-proxy'
import { shownModelName } from 'model-proxy/kit/models'
import type { KeyDirectory } from './directory.ts'
import type { KeyLimits } from './limits.ts'
import type { Hold, KeyRules } from './limit-types.ts'
import { policyOf, type ClientKeyEntry } from './schema.ts'
import type { KeyMetrics } from './key-metrics.ts'
import type { RecentRequests } from './recent.ts'
import { declaredMaxOutput, reservable } from './estimate.ts'
import { limitRefusal, limitsUnavailable, modelRefusal, unpricedRefusal } from './refusals.ts'
import { denialText, modelDenial } from './model-access.ts'
import type { UnpricedModels } from './unpriced.ts'
import { admittedModel } from './serving-check.ts'
import { toNano } from './windows.ts'

const hasLimits = (entry: ClientKeyEntry) => entry.rpm !== undefined || entry.tpm !== undefined || entry.budget !== undefined

const rulesOf = (entry: ClientKeyEntry): KeyRules => ({
  rpm: entry.rpm, tpm: entry.tpm, budgetNano: entry.budget && toNano(entry.budget.usd), period: entry.budget?.period ?? 'month',
})

interface Parts { directory: () => KeyDirectory; limits: KeyLimits; metrics: KeyMetrics; recent: RecentRequests; unpriced: UnpricedModels }

/**
 * A named key's rules on each request: the model that serves (after routing's rules and fallbacks) must
 * be one of its models and, for a key with a budget, have a price (403); then one atomic reservation against its rpm,
 * tpm and budget (429 / 402) before anything is sent; after the answer (a stream: at its end, never
 * cut) the reservation is replaced by the real tokens and cost.
 */
export function addEnforcement(kernel: ProxyKernel, { directory, limits, metrics, recent, unpriced }: Parts): void {
  const holds = defineRequestState<{ hold: Hold; name: string }>('client-keys hold')
  const prices = () => kernel.services.prices
  const policy = () => policyOf(kernel.config)

  // A fault here must not take the request down: it is served, and the operator is told.
  const guarded = <T>(what: string, hook: (ctx: T) => Promise<void>) => async (ctx: T) => {
    try {
      await hook(ctx)
    } catch (error) {
      kernel.warnLimited('client-keys', `client-key ${what} failed: ${(error as Error).message}`)
    }
  }

  kernel.hooks.hook('route-resolve', async (ctx) => {
    const entry = directory().entryOf(ctx.request.clientKey)
    if (!entry) return
    try {
      await admit(ctx, entry)
    } catch (error) {
      kernel.warnLimited('client-keys', `client-key check failed: ${(error as Error).message}`)
      // `on-error: closed`: a key with limits is not served when they could not be checked.
      if (policy()['on-error'] === 'closed' && hasLimits(entry) && !ctx.error) refuseUnavailable(ctx, entry, 'the check failed')
    }
  })

  /** The model that serves (after rules and fallbacks) against the key's models and prices, then its limits. */
  const admit = async (ctx: RouteContext, entry: ClientKeyEntry) => {
    const { request } = ctx
    request.needsUsage = true
    const model = request.servedModel ?? request.model
    const denial = modelDenial(entry, model, ctx.candidates, prices()?.price, policy(), upstreams => unpriced.note(model, upstreams, 'allowed'))
    if (denial) {
      metrics.rejections.inc([entry.name, denial.reason])
      if (denial.reason === 'unpriced') unpriced.note(model, denial.upstreams, 'refused')
      ctx.error = denial.reason === 'model' ? modelRefusal(model) : unpricedRefusal(denialText(denial, model))
      return
    }
    admittedModel.set(request, model)
    // Closed: a key with limits is not served on counters the fleet does not share.
    const closed = policy()['on-error'] === 'closed' && hasLimits(entry) && kernel.fleet.shared
    if (closed && !kernel.fleet.health().up) return refuseUnavailable(ctx, entry, 'the shared store is unreachable')
    // The body's size from its bytes (never serialized again for this); the output cap from its own field.
    const size = request.clientBytes?.length ?? JSON.stringify(request.body).length
    const inputTokens = Math.ceil(size / 4)
    const outputTokens = declaredMaxOutput(key => requestField(request, key))
    const price = prices()?.price(request.model, ctx.candidates[0]?.upstreamModel)
    const nano = price ? toNano((inputTokens * price.input + outputTokens * price.output) / 1_000_000) : 0
    const result = await limits.reserve(entry.name, rulesOf(entry), { tokens: reservable(inputTokens + outputTokens), nano: reservable(nano) })
    if ('id' in result) {
      if (closed && !result.shared) {
        // The store failed during the reservation: it was taken locally; give it back (not even the
        // request counts: it is not served) and refuse.
        limits.withdraw(result)
        return refuseUnavailable(ctx, entry, 'the shared store is unreachable')
      }
      holds.set(request, { hold: result, name: entry.name })
      return
    }
    metrics.rejections.inc([entry.name, result.reason])
    ctx.error = limitRefusal(entry, result)
  }

  const refuseUnavailable = (ctx: RouteContext, entry: ClientKeyEntry, why: string) => {
    metrics.rejections.inc([entry.name, 'unavailable'])
    ctx.error = limitsUnavailable(why)
  }

  kernel.hooks.hook('after-response', guarded('accounting', async (ctx) => {
    const { request } = ctx
    const name = holds.get(request)?.name ?? directory().entryOf(request.clientKey)?.name
    if (!name) return
    const usage = ctx.usage
    const tokens = usage ? usage.inputTokens + usage.outputTokens : 0
    const cost = prices()?.costOfUsage(usage, request.model, ctx.candidate?.upstreamModel) ?? 0
    const status = endedStatus(ctx)
    metrics.requests.inc([name, String(status)])
    if (usage?.inputTokens) metrics.tokens.inc([name, 'input'], usage.inputTokens)
    if (usage?.outputTokens) metrics.tokens.inc([name, 'output'], usage.outputTokens)
    if (cost) metrics.cost.inc([name], cost)
    recent.add(name, { time: request.startedAt, model: shownModelName(request.model), status, inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0, costUsd: cost, ...(usage?.estimated && { estimated: true }) })
    const held = holds.get(request)
    if (!held) return
    holds.set(request, undefined)
    // An answer without usage (a chat stream without stream_options.include_usage) counts as reserved.
    const counted = usage || ctx.status >= 400 ? { tokens, nano: toNano(cost) } : { tokens: held.hold.tokens, nano: held.hold.nano }
    await limits.settle(held.hold, counted)
  }))
}
