import { z } from 'zod'
import { requiredBaseUrlSchema } from '../../core/config/upstream-url.ts'
import { headersSchema, modelAliasSchema, prioritySchema, proxyUrlSchema } from '../../core/config/schema-entries.ts'
import type { ProviderConfigKey } from '../../core/provider.ts'

export const compatKeyEntrySchema = z.object({
  'api-key': z.string().default(''),
  'proxy-url': proxyUrlSchema.optional(),
})

/** One entry of `compat-provider` (spec: "Compat provider entry"): an OpenAI-compatible upstream. */
export const compatProviderSchema = z.object({
  name: z.string().min(1, { error: 'must be a non-empty name' }),
  'base-url': requiredBaseUrlSchema,
  'api-key-entries': z.array(compatKeyEntrySchema).default([]),
  models: z.array(modelAliasSchema).default([]),
  headers: headersSchema,
  prefix: z.string().default(''),
  'excluded-models': z.array(z.string()).default([]),
  priority: prioritySchema,
})
export type CompatProviderEntry = z.infer<typeof compatProviderSchema>

/** `compat-provider`: named upstreams, found by `name`, each with its own keys. */
export const compatConfig: ProviderConfigKey<CompatProviderEntry[]> = {
  key: 'compat-provider',
  schema: z.array(compatProviderSchema).default([]),
  entry: compatProviderSchema,
  identity: 'name',
  editor: 'named-upstreams',
}
