/**
 * What the management plugin offers other plugins: routes behind the management guard, its error type
 * and reply helper, config writes, build headers and the secret check. Plugins import another plugin
 * only through its `api.ts` (test/architecture/plugin-boundaries.test.ts); the rest of its folder is private.
 */
export { createSecretVerifier } from './secret.ts'
export { formatWait } from './ban-list.ts'
export { addManagementRoute, readBody, type Guard } from './route.ts'
export { ManagementError, reply } from './respond.ts'
export { buildHeaders } from './build-info.ts'
export { updateConfig, changeOrigin } from './config-store.ts'
export { writeKeeping } from './write-keeping.ts'
export { listIn } from './doc-list.ts'
export { brokenStream, requestOutcome, type RequestOutcome } from './outcome.ts'
