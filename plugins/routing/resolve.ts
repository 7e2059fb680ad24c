import type { ProxyKernel, Candidate, CanonicalRequest, WireFormat } from 'model-proxy'
import { countRequestTokens } from 'model-proxy/internal'
import { matchRule, type RuleMatch } from './rules.ts'
import { traitsOf, type RequestTraits } from './request-traits.ts'

/** What route resolution needs to know of a request (a live one, or one sent to route-preview). */
export interface ResolveInput {
  model: string
  inbound: WireFormat
  body: Record<string, unknown>
  headers: Headers
  clientKey?: string
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
  /** A matching rule named a model nothing serves: it was skipped. */
  skipped?: string
}

/**
 * Scenario rules (`routing.rules`) first, in order; the first match whose model is served wins. Then the
 * client's model as the spec resolves it. Nothing is decoded or counted unless a rule asks.
 */
export async function resolveRoute(kernel: ProxyKernel, input: ResolveInput): Promise<Resolution> {
  const own = (): Resolution => ({ model: input.model, candidates: kernel.models.get(input.model) ?? [] })
  const rules = kernel.config.routing.rules
  if (!rules.length) return own()
  let traits: RequestTraits | undefined
  const match = await matchRule(rules, {
    model: input.model,
    clientKey: input.clientKey,
    headers: input.headers,
    traits: () => traits ??= traitsOf(input.canonical(), input.body, input.headers),
    tokens: input.tokens ?? (() => countRequestTokens(input.canonical())),
  })
  if (!match) return own()
  const candidates = kernel.models.get(match.rule.model)
  if (!candidates?.length) return { ...own(), skipped: `${match.name} names ${match.rule.model}, which no configured provider serves` }
  return { model: match.rule.model, candidates, rule: match }
}
