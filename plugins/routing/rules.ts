import type { RoutingRule } from 'model-proxy/internal'
import { matchModelPattern } from 'model-proxy/internal'
import type { RequestTraits } from './request-traits.ts'

export interface RuleInput {
  model: string
  clientKey?: string
  headers: Headers
  traits: () => RequestTraits
  /** Input tokens, counted only when a rule asks. */
  tokens: () => Promise<number>
}

export interface RuleMatch { index: number; name: string; rule: RoutingRule; tokens?: number }

const flags: Array<[keyof RoutingRule, keyof RequestTraits]> = [
  ['background', 'background'], ['thinking', 'thinking'], ['images', 'images'], ['web-search', 'webSearch'], ['sub-agent', 'subAgent'],
]

/** The first rule whose every condition holds (cheap checks first, the token count last). */
export async function matchRule(rules: RoutingRule[], input: RuleInput): Promise<RuleMatch | undefined> {
  let tokens: number | undefined
  for (const [index, rule] of rules.entries()) {
    if (rule.models && !rule.models.some(pattern => matchModelPattern(pattern, input.model))) continue
    if (rule['client-keys'] && !(input.clientKey && rule['client-keys'].includes(input.clientKey))) continue
    if (rule.headers && !headersMatch(rule.headers, input.headers)) continue
    if (flags.some(([key, trait]) => rule[key] !== undefined && rule[key] !== input.traits()[trait])) continue
    if (rule['tokens-over'] !== undefined) {
      tokens ??= await input.tokens()
      if (tokens <= rule['tokens-over']) continue
    }
    return { index, name: rule.name ?? `rule ${index + 1}`, rule, tokens }
  }
}

function headersMatch(wanted: Record<string, string>, headers: Headers): boolean {
  for (const [name, pattern] of Object.entries(wanted)) {
    const value = headers.get(name)
    if (value === null) return false
    try {
      if (!new RegExp(pattern).test(value)) return false
    } catch {
      if (value !== pattern) return false
    }
  }
  return true
}
