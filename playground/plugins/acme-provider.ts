// An example third-party provider plugin, the way an outside author writes one: it imports only the
// public entry, declares its family, reuses a built-in wire format, brings its own config key, keeps
// a little state in storage, and hooks into the lifecycle.
import { defineProvider, defineProxyPlugin, z, type Credential } from 'model-proxy'

/** Its own config key, validated with the rest of the YAML and shown in GET /v0/management/config. */
const configSchema = z.looseObject({
  'acme-provider': z.object({
    'base-url': z.url(),
    keys: z.array(z.string().min(1)).default([]),
    models: z.array(z.string()).default([]),
  }).optional(),
})
type AcmeConfig = z.infer<typeof configSchema>

/** Its key is typed on the kernel's config from here on. */
declare module 'model-proxy' {
  interface ProxyConfig extends AcmeConfig {}
}

/** ACME speaks the chat-completions format but wants its key in `x-acme-key` and a tenant header. */
const acme = defineProvider({
  family: 'acme',
  format: 'chat',
  credentials(config) {
    const section = config['acme-provider']
    if (!section) return []
    return section.keys.map((key, index): Credential => ({
      id: `acme:${index}`,
      family: 'acme',
      provider: 'acme',
      apiKey: key,
      baseUrl: section['base-url'].replace(/\/+$/, ''),
      headers: { 'x-acme-tenant': 'playground' },
      prefix: 'acme',
      priority: 0,
      models: section.models.map(model => ({ id: model, upstream: model })),
      excludedModels: [],
      attributes: {},
    }))
  },
  buildRequest({ credential, body, stream }) {
    return {
      url: `${credential.baseUrl}/chat/completions`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json', 'x-acme-key': credential.apiKey ?? '', ...credential.headers },
      json: body,
    }
  },
})

export default defineProxyPlugin({
  name: 'acme-provider',
  configSchema,
  setup(kernel) {
    kernel.registerProvider(acme)
    // State through storage: a request counter that survives restarts and is shared by instances.
    kernel.hooks.hook('after-response', async (ctx) => {
      if (ctx.candidate?.credential.family !== 'acme') return
      const count = ((await kernel.storage.getItem<number>('acme:requests')) ?? 0) + 1
      await kernel.storage.setItem('acme:requests', count)
    })
  },
})
