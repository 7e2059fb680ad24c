import { z } from 'zod'
import type { Credential } from './credential.ts'
import { providerKeyEntrySchema, type ProviderKeyEntry } from '../config/schema-entries.ts'
import type { ProviderConfigKey } from './provider.ts'

/**
 * The usual family config key: a list of provider key entries (spec: "Provider key entry") under `key`,
 * edited in the panel one key per entry, found by `api-key`.
 */
export function keyListConfig(key: string): ProviderConfigKey<ProviderKeyEntry[]> {
  return { key, schema: z.array(providerKeyEntrySchema).default([]), entry: providerKeyEntrySchema, identity: 'api-key', editor: 'key-entries' }
}

/**
 * Credentials from a family's provider key entries (`keyListConfig`). An entry's `models[]` adds aliases on top of the family's
 * built-in catalog; an alias with `name` also in the catalog replaces that catalog name for clients.
 */
export function keyEntryCredentials(family: string, entries: ProviderKeyEntry[], defaultBaseUrl: string, catalog: string[]): Credential[] {
  return entries.map((entry, index) => {
    const aliased = new Set(entry.models.filter(model => model.alias && model.alias !== model.name).map(model => model.name))
    const models = [
      ...catalog.filter(name => !aliased.has(name)).map(name => ({ id: name, upstream: name })),
      ...entry.models.map(model => ({ id: model.alias || model.name, upstream: model.name })),
    ]
    const unique = new Map(models.map(model => [`${model.id}\u0000${model.upstream}`, model]))
    return {
      id: `${family}:${index}`,
      family,
      provider: family,
      apiKey: entry['api-key'],
      baseUrl: (entry['base-url'] || defaultBaseUrl).replace(/\/+$/, ''),
      headers: entry.headers,
      prefix: entry.prefix,
      priority: entry.priority,
      proxyUrl: entry['proxy-url'],
      models: [...unique.values()],
      excludedModels: entry['excluded-models'],
      attributes: {},
    }
  })
}
