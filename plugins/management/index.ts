import { defineProxyPlugin } from 'model-proxy'
import { createAccessGuard } from './access.ts'
import { addConfigRoutes } from './routes-config.ts'
import { addFieldRoutes } from './routes-fields.ts'
import { addApiKeyRoutes } from './routes-keys.ts'
import { addProviderRoutes } from './routes-providers.ts'
import { addCredentialRoutes } from './routes-credentials.ts'
import { addMiscRoutes } from './routes-misc.ts'
import { addStatusRoute } from './routes-status.ts'
import { addClientCallRoute } from './routes-client-call.ts'
import { addManagementFallback } from './route.ts'
import { z } from 'zod'
import { hashSecret, isBcryptHash } from './secret.ts'
import { changeOrigin, updateConfig } from './config-store.ts'
import { hashPlainSecretIn } from './secret-doc.ts'

declare module 'model-proxy' {
  interface ProxyServices {
    /** The management API's access check (key, remote access, bans): plugins that add management routes put them behind it. */
    managementGuard?: ReturnType<typeof createAccessGuard>
  }
  interface ProxyConfig {
    'release-url': string
  }
}

/** Management API under `/v0/management`: config, keys, credentials, status, behind the management key. */
export default defineProxyPlugin({
  name: 'management',
  after: ['routing'],
  configSchema: z.looseObject({
    /** Where GET /latest-version looks (npm `{version}` or a release `{tag_name}` listing); default: the npm registry entry of this package. */
    'release-url': z.string().default(''),
  }),
  async setup(kernel) {
    // A plain secret-key is hashed at start-up and the hash written back to the YAML (a reference stays one: secret-doc.ts).
    const secret = kernel.config['remote-management']['secret-key']
    if (secret && !isBcryptHash(secret)) {
      if (kernel.configFile) await changeOrigin.run('start-up (the plain secret-key is replaced by its hash)', () => updateConfig(kernel, doc => hashPlainSecretIn(doc)))
      else await kernel.applyConfig({ ...kernel.config, 'remote-management': { ...kernel.config['remote-management'], 'secret-key': await hashSecret(secret) } })
    }
    const guard = createAccessGuard(kernel)
    kernel.services.managementGuard = guard
    addConfigRoutes(kernel, guard)
    addFieldRoutes(kernel, guard)
    addApiKeyRoutes(kernel, guard)
    addProviderRoutes(kernel, guard)
    addCredentialRoutes(kernel, guard)
    addMiscRoutes(kernel, guard)
    addStatusRoute(kernel, guard)
    addClientCallRoute(kernel, guard)
    addManagementFallback(kernel, guard)
  },
})
