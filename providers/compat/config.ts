import { z } from 'zod'
import type { ProviderConfigKey } from 'model-proxy'
import { namedUpstreamEntrySchema } from 'model-proxy/kit/config'

/** One entry of `compat-provider`: an OpenAI-compatible upstream, the core's named-upstream shape. */
export const compatProviderSchema = namedUpstreamEntrySchema
export type CompatProviderEntry = z.infer<typeof compatProviderSchema>

/** `compat-provider`: named upstreams, found by `name`, each with its own keys. */
export const compatConfig: ProviderConfigKey<CompatProviderEntry[]> = {
  key: 'compat-provider',
  schema: z.array(compatProviderSchema).default([]),
  entry: compatProviderSchema,
  identity: 'name',
  editor: 'named-upstreams',
}
