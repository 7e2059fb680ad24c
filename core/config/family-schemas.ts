import { z } from 'zod'
import type { ProviderDef } from '../provider/provider.ts'

/** A payload protocol no family answers to (spec: `proto_exp`, experimental): accepted, never matched. */
const unownedProtocols = ['proto_exp']

/** The families' own config keys as one schema (each value with its default). */
export function familyKeysSchema(providers: readonly ProviderDef[]): z.ZodType | undefined {
  const shape: Record<string, z.ZodType> = {}
  for (const provider of providers) if (provider.config) shape[provider.config.key] = provider.config.schema
  return Object.keys(shape).length ? z.looseObject(shape) : undefined
}

/** Payload-rule protocols the families answer to, in registration order, then the spec's unowned ones. */
export function payloadProtocols(providers: readonly ProviderDef[]): string[] {
  return [...new Set([...providers.map(provider => provider.payloadProtocol).filter((p): p is string => !!p), ...unownedProtocols])]
}

/** `payload.<kind>[i].models[j].protocol` must name a known protocol, with zod's own enum wording. */
export function payloadProtocolCheck(protocols: readonly string[]): z.ZodType {
  const message = `Invalid option: expected one of ${protocols.map(p => JSON.stringify(p)).join('|')}`
  return z.looseObject({}).superRefine((config, ctx) => {
    const payload = config.payload
    if (!payload || typeof payload !== 'object') return
    for (const [kind, rules] of Object.entries(payload)) {
      if (!Array.isArray(rules)) continue
      rules.forEach((rule, i) => {
        const models = (rule as { models?: unknown } | null)?.models
        if (!Array.isArray(models)) return
        models.forEach((model, j) => {
          const protocol = (model as { protocol?: unknown } | null)?.protocol
          if (typeof protocol === 'string' && !protocols.includes(protocol)) ctx.addIssue({ code: 'custom', path: ['payload', kind, i, 'models', j, 'protocol'], message })
        })
      })
    }
  })
}

/**
 * What the registered families add to the config schema: their keys and the payload protocols they
 * answer to. Known before any YAML is validated: families are declared on their plugins and the plugins
 * are loaded first (core/config/load.ts).
 */
export function familySchemas(providers: readonly ProviderDef[]): z.ZodType[] {
  const keys = familyKeysSchema(providers)
  return [...(keys ? [keys] : []), payloadProtocolCheck(payloadProtocols(providers))]
}
