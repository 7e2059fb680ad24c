import { defineProxyPlugin, type ProxyConfig } from 'model-proxy'
import { partnerBaseUrl, partnerOf, partnerSchema } from './config.ts'
import { addMappedCandidates } from './serve-locally.ts'
import { addProviderRoutes } from './routes-provider.ts'
import { addProxiedRoutes } from './routes-proxied.ts'

/**
 * The partner integration (the `partner` key, docs/partner.md): provider-alias
 * routes served by local providers, model mappings with a fallback to the partner upstream, and the
 * partner's own routes proxied with the partner key. Settings are read per request, so a reload
 * (management write or file edit) applies to the next request.
 */
export default defineProxyPlugin({
  name: 'partner',
  configSchema: partnerSchema,
  setup(kernel) {
    // A URL that cannot be used is told at start and on every reload, not only by the first 503.
    const checkUrl = (config: ProxyConfig) => {
      const base = partnerBaseUrl(partnerOf(config))
      if ('problem' in base && partnerOf(config)['upstream-url'].trim()) kernel.logger.warn(`${base.problem}: partner routes will answer 503`)
    }
    checkUrl(kernel.config)
    kernel.hooks.hook('config-reload', config => checkUrl(config))
    addMappedCandidates(kernel)
    addProviderRoutes(kernel)
    addProxiedRoutes(kernel)
  },
})
