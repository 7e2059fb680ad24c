// An Ollama provider as a project plugin: its own wire format (NDJSON streams), its own config key, and
// nothing but the public `model-proxy` entry. Walkthrough: README.md next to this file.
import { defineProvider, defineProxyPlugin, z, type Credential } from 'model-proxy'
import { ollamaCodec } from './codec/index.ts'

/** `ollama:` in the YAML: where the server is, and which of its models to offer. */
const configSchema = z.looseObject({
  ollama: z.array(z.object({
    name: z.string().min(1).default('ollama'),
    'base-url': z.url().default('http://127.0.0.1:11434'),
    /** For an Ollama behind an authenticating reverse proxy; a local one needs none. */
    'api-key': z.string().optional(),
    models: z.array(z.union([z.string().min(1), z.object({ name: z.string().min(1), alias: z.string().min(1) })])).default([]),
  })).default([]),
})
type OllamaConfig = z.infer<typeof configSchema>

// The kernel's config now knows the key: `config.ollama` is typed wherever this plugin is loaded.
declare module 'model-proxy' {
  interface ProxyConfig extends OllamaConfig {}
}

export const ollamaProvider = defineProvider({
  family: 'ollama',
  format: 'ollama',
  credentials(config) {
    return config.ollama.map((entry, index): Credential => ({
      id: `ollama:${entry.name}:${index}`,
      family: 'ollama',
      provider: entry.name,
      apiKey: entry['api-key'],
      baseUrl: entry['base-url'].replace(/\/+$/, ''),
      headers: {},
      prefix: '',
      priority: 0,
      models: entry.models.map(model => typeof model === 'string' ? { id: model, upstream: model } : { id: model.alias, upstream: model.name }),
      excludedModels: [],
      attributes: {},
    }))
  },
  buildRequest({ credential, body }) {
    return {
      url: `${credential.baseUrl}/api/chat`,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(credential.apiKey && { authorization: `Bearer ${credential.apiKey}` }) },
      // `stream` is in the body the codec encoded: Ollama streams NDJSON unless told `false`.
      json: body,
    }
  },
})

export default defineProxyPlugin({
  name: 'ollama-provider',
  configSchema,
  setup(kernel) {
    kernel.registerFormat(ollamaCodec)
    kernel.registerProvider(ollamaProvider)
  },
})
