import type { ProxyKernel, Candidate, CanonicalRequest, WireFormat } from 'model-proxy'
import { countRequestTokens } from 'model-proxy/kit/tokens'
import { matchRule, type RuleMatch } from './rules.ts'
import { traitsOf, type RequestTraits } from './request-traits.ts'

/** What route resolution needs to know of a request (a live one, or one sent to route-preview). */
export interface ResolveInput {
  model: string
  inbound: WireFormat
  body: Record<string, unknown>
  headers: Headers
  clientKey?: string
  /** The named key's name, when the client key is one (rules list named keys by name). */
  clientKeyName?: () => string | undefined
  /** Why the client key may not be served by a model (its allowed models, prices), or undefined. */
  modelRefusal?: (model: string) => string | undefined
  /** The request's canonical form, decoded at most once and shared with the pipeline. */
  canonical: () => CanonicalRequest
  /** Input tokens, when something already counted them. */
  tokens?: () => Promise<number>
}

export interface Resolution {
  /** The model whose candidates serve the request (the client's, or a rule's). */
  model: string
  candidates: Candidate[]
  rule?: RuleMatch
  /** Matching rules skipped (a model nothing serves, or one the client key may not use), and why. */
  skipped?: string[]
}

/**
 * Scenario rules (`routing.rules`) first, in order; the first match whose model is served and the client
 * key may use wins (the others are skipped, and said so). Then the client's model as the spec resolves
 * it. Nothing is decoded or counted unless a rule asks, and the count is taken once.
 */
export async function resolveRoute(kernel: ProxyKernel, input: ResolveInput): Promise<Resolution> {
  const skipped: string[] = []
  const own = (): Resolution => ({ model: input.model, candidates: kernel.models.get(input.model) ?? [], ...(skipped.length && { skipped }) })
  const rules = kernel.config.routing.rules
  if (!rules.length) return own()
  let traits: RequestTraits | undefined
  let tokens: Promise<number> | undefined
  const ruleInput = {
    model: input.model,
    clientKey: input.clientKey,
    clientKeyName: input.clientKeyName,
    headers: input.headers,
    traits: () => traits ??= traitsOf(input.canonical(), input.body, input.headers),
    tokens: () => tokens ??= (input.tokens ?? (() => countRequestTokens(input.canonical())))(),
  }
  for (let from = 0; ;) {
    const match = await matchRule(rules, ruleInput, from)
    if (!match) return own()
    from = match.index + 1
    const model = match.rule.model
    const candidates = kernel.models.get(model)
    if (!candidates?.length) {
      skipped.push(`${match.name} names ${model}, which no configured provider serves`)
      continue
    }
    const refused = input.modelRefusal?.(model)
    if (refused) {
      skipped.push(`${match.name} names ${model}, which this client key may not use: ${refused}`)
      continue
    }
    return { model, candidates, rule: match, ...(skipped.length && { skipped }) }
  }
}
