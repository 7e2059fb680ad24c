/**
 * What the management plugin offers other plugins: routes behind the management guard, its error type, config writes, build headers and the secret check. Plugins import another plugin only
 * through its `api.ts` (test/architecture/plugin-boundaries.test.ts); everything else in its folder is private.
 */
export { createSecretVerifier } from './secret.ts'
export { formatWait } from './ban-list.ts'
export { addManagementRoute, readBody, type Guard } from './route.ts'
export { ManagementError } from './respond.ts'
export { buildHeaders } from './build-info.ts'
export { updateConfig, changeOrigin } from './config-store.ts'
