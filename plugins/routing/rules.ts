import { clientKeyId } from 'model-proxy/kit/access'
import type { RoutingRule } from 'model-proxy/kit/config'
import { matchModelPattern } from 'model-proxy/kit/models'
import type { RequestTraits } from './request-traits.ts'

export interface RuleInput {
  model: string
  /** The key the client sent (a route preview may name a named key by its name only). */
  clientKey?: string
  /** A named key's name (`client-keys`), looked up only when a rule lists keys. */
  clientKeyName?: () => string | undefined
  headers: Headers
  traits: () => RequestTraits
  /** Input tokens, counted only when a rule asks. */
  tokens: () => Promise<number>
}

export interface RuleMatch { index: number; name: string; rule: RoutingRule; tokens?: number }

const flags: Array<[keyof RoutingRule, keyof RequestTraits]> = [
  ['background', 'background'], ['thinking', 'thinking'], ['images', 'images'], ['web-search', 'webSearch'], ['sub-agent', 'subAgent'],
]

/**
 * Whether a rule's `client-keys` list names the client's key: a named key by its name, a plain
 * `api-keys` entry by its value or by its id (`key-<hash>`, as `/usage` shows it).
 */
export function listsClientKey(list: string[], input: Pick<RuleInput, 'clientKey' | 'clientKeyName'>): boolean {
  const { clientKey } = input
  if (clientKey !== undefined && (list.includes(clientKey) || (list.some(item => item.startsWith('key-')) && list.includes(clientKeyId(clientKey))))) return true
  const name = input.clientKeyName?.()
  return name !== undefined && list.includes(name)
}

/** The first rule from `from` on whose every condition holds (cheap checks first, the token count last). */
export async function matchRule(rules: RoutingRule[], input: RuleInput, from = 0): Promise<RuleMatch | undefined> {
  let tokens: number | undefined
  for (let index = from; index < rules.length; index++) {
    const rule = rules[index]!
    if (rule.models && !rule.models.some(pattern => matchModelPattern(pattern, input.model))) continue
    if (rule['client-keys'] && !listsClientKey(rule['client-keys'], input)) continue
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
