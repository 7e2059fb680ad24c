import { defineRequestState, type ProxyKernel } from 'model-proxy'
import type { KeyDirectory } from './directory.ts'
import type { KeyMetrics } from './key-metrics.ts'
import type { UnpricedModels } from './unpriced.ts'
import { denialText, modelDenial } from './model-access.ts'
import { modelRefusal, unpricedRefusal } from './refusals.ts'
import { policyOf } from './schema.ts'

/** The model admission checked for the request: a pick of the same model needs no second look. */
export const admittedModel = defineRequestState<string>('client-keys admitted model')

interface Parts { directory: () => KeyDirectory; metrics: KeyMetrics; unpriced: UnpricedModels }

/**
 * The key's models, checked again on each pick: a `route-resolve` hook of another plugin runs after this
 * one's admission and may send the request elsewhere (its last word on the candidates). Routing's own
 * rules and fallbacks already skip what the key may not use, so this only refuses what such a hook chose.
 */
export function addServingCheck(kernel: ProxyKernel, { directory, metrics, unpriced }: Parts): void {
  kernel.hooks.hook('credential-pick', (ctx) => {
    if (!ctx.pick) return
    const entry = directory().entryOf(ctx.request.clientKey)
    if (!entry) return
    const model = ctx.request.servedModel ?? ctx.request.model
    if (admittedModel.get(ctx.request) === model) return
    const denial = modelDenial(entry, model, [ctx.pick], kernel.services.prices?.price, policyOf(kernel.config))
    if (!denial) return
    metrics.rejections.inc([entry.name, denial.reason])
    if (denial.reason === 'unpriced') unpriced.note(model, denial.upstreams, 'refused')
    ctx.pick = undefined
    ctx.waitUntil = undefined
    ctx.error = denial.reason === 'model' ? modelRefusal(model) : unpricedRefusal(denialText(denial, model))
  })
}
