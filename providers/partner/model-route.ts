import { matchModelPattern } from 'model-proxy/kit/models'
import type { PartnerSettings } from './config.ts'

/** Which way a provider-alias request goes (routing rule 17). */
export type ModelRoute =
  | { way: 'local'; model: string }
  | { way: 'mapped'; model: string; target: string }
  | { way: 'upstream'; model: string; target?: string }

/** The first mapping whose `from` matches (exact or the exclusion wildcards `a-*`, `*-a`, `*a*`). */
export function findMapping(model: string, mappings: PartnerSettings['model-mappings']): string | undefined {
  for (const mapping of mappings) if (matchModelPattern(mapping.from, model)) return mapping.to
  return undefined
}

/**
 * Rule 17: a model served locally stays local; otherwise a mapping whose target has providers is used;
 * otherwise the partner upstream answers. With `force-model-mappings` a usable mapping wins even over a
 * model served locally.
 */
export function decideModelRoute(model: string, settings: Pick<PartnerSettings, 'model-mappings' | 'force-model-mappings'>, hasProviders: (model: string) => boolean): ModelRoute {
  const target = findMapping(model, settings['model-mappings'])
  const usable = target !== undefined && target !== model && hasProviders(target)
  if (usable && settings['force-model-mappings']) return { way: 'mapped', model, target }
  if (hasProviders(model)) return { way: 'local', model }
  if (usable) return { way: 'mapped', model, target }
  return target === undefined ? { way: 'upstream', model } : { way: 'upstream', model, target }
}
