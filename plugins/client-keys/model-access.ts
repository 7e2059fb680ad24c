import type { Candidate } from 'model-proxy'
import { shownModelName } from 'model-proxy/kit/models'
import { keyAllowsModel } from './directory.ts'
import type { ClientKeyEntry, ClientKeyPolicy } from './schema.ts'

/** What prices a model: the pricing plugin's table (absent: nothing is priced). */
export type PriceLookup = ((model: string, upstreamModel?: string) => unknown) | undefined

/**
 * The upstream names of `model` no price covers: neither `model-prices` (by the client's name or the
 * upstream one) nor the price table. Empty: every candidate is priced, so what it answers has a cost.
 */
export function unpricedUpstreams(price: PriceLookup, model: string, candidates: Candidate[]): string[] {
  const seen = new Set<string>()
  const missing: string[] = []
  for (const { upstreamModel } of candidates) {
    if (seen.has(upstreamModel)) continue
    seen.add(upstreamModel)
    if (!price?.(model, upstreamModel)) missing.push(upstreamModel)
  }
  return missing
}

/** Why a named key may not be served by a model: its `models` patterns, or no price for a key with a budget. */
export type ModelDenial = { reason: 'model' } | { reason: 'unpriced'; upstreams: string[] }

/**
 * Whether `entry` may be served by `model` (whose candidates are `candidates`). A key with a budget and a
 * model without a price: refused unless the policy allows it; `allowed` reports such a model let through.
 */
export function modelDenial(entry: ClientKeyEntry, model: string, candidates: Candidate[], price: PriceLookup, policy: ClientKeyPolicy, allowed?: (upstreams: string[]) => void): ModelDenial | undefined {
  if (!keyAllowsModel(entry, model)) return { reason: 'model' }
  if (!entry.budget || !candidates.length) return undefined
  const upstreams = unpricedUpstreams(price, model, candidates)
  if (!upstreams.length) return undefined
  if (policy['unpriced-models'] === 'allow') {
    allowed?.(upstreams)
    return undefined
  }
  return { reason: 'unpriced', upstreams }
}

/** A denial in words (route previews, logs and the client's error). */
export function denialText(denial: ModelDenial, model: string): string {
  if (denial.reason === 'model') return `this API key may not use model ${JSON.stringify(shownModelName(model))}`
  const names = denial.upstreams.filter(name => name !== model)
  const upstream = names.length ? ` (upstream ${names.map(name => JSON.stringify(name)).join(', ')})` : ''
  return `model ${JSON.stringify(model)}${upstream} has no price, and this API key has a budget: its cost cannot be counted. `
    + `Add the model to the proxy's \`model-prices\` setting (e.g. model-prices: { ${JSON.stringify(model)}: { input: 1, output: 2 } }, USD per million tokens), `
    + 'or set `client-key-policy.unpriced-models: allow` to serve it at $0'
}
