import { matchModelPattern } from 'model-proxy/kit/models'
import type { CompiledRule } from './compile.ts'
import { deletePath, hasPath, setPath } from './json-path.ts'

export interface RuleTarget {
  /** Model names the rule may match: the upstream name and the client's. */
  models: string[]
  protocol: string
}

/** Whether a rule applies to the request's models and protocol. */
export function ruleMatches(rule: CompiledRule, target: RuleTarget): boolean {
  if (!rule.models.length) return true
  return rule.models.some(entry =>
    (!entry.protocol || entry.protocol === target.protocol) && target.models.some(model => matchModelPattern(entry.name, model)))
}

/**
 * Apply rules (already ordered filter -> default -> override) to the body sent upstream. Defaults look
 * at the body as the client sent it: a path the client set is never defaulted over.
 */
export function applyRules(body: Record<string, unknown>, rules: CompiledRule[], target: RuleTarget): number {
  let applied = 0
  const original = structuredClone(body)
  for (const rule of rules) {
    if (!ruleMatches(rule, target)) continue
    applied++
    for (const { path, value } of rule.params) {
      if (rule.kind === 'filter') deletePath(body, path)
      else if (rule.kind === 'override' || !hasPath(original, path)) setPath(body, path, structuredClone(value))
    }
  }
  return applied
}
