import type { ModelOffer } from '../provider/credential.ts'

/** The spec's four wildcard forms: `exact`, `prefix-*`, `*-suffix`, `*substring*` (case-sensitive). */
export function matchModelPattern(pattern: string, model: string): boolean {
  const starts = pattern.startsWith('*')
  const ends = pattern.endsWith('*') && pattern.length > 1
  if (starts && ends) return model.includes(pattern.slice(1, -1))
  if (starts) return model.endsWith(pattern.slice(1))
  if (ends) return model.startsWith(pattern.slice(0, -1))
  return pattern === model
}

export function isExcluded(patterns: string[], model: string): boolean {
  for (const pattern of patterns) if (matchModelPattern(pattern, model)) return true
  return false
}

/** The offers a credential really serves: `excluded-models` matched against the client name or the upstream name (rule 6). */
export const isServedOffer = (excluded: string[], offer: ModelOffer) => !isExcluded(excluded, offer.id) && !isExcluded(excluded, offer.upstream)
