import { defineProxyPlugin, type z } from 'model-proxy'
import { sweepAtomicTempFiles } from 'model-proxy/internal'
import { CredentialFileStore } from './store.ts'
import { fileCredential } from './to-credential.ts'
import { isDue, refreshAheadMs, refreshFile } from './refresh.ts'
import { serviceAccountToken } from './service-account.ts'
import { fillProject } from './project-discovery.ts'
import { channelDefaults } from './to-credential.ts'
import { oauthClientFor, oauthClientsSchema } from './oauth-clients.ts'
import { addSignInRoutes } from './routes-signin.ts'
import { addAuthFileRoutes } from './routes.ts'
import { syncCredentialFiles } from './fleet-sync.ts'
import { refreshUnderLease } from './refresh-lease.ts'

type OAuthClientsConfig = z.infer<typeof oauthClientsSchema>

declare module 'model-proxy' {
  interface ProxyConfig extends OAuthClientsConfig {}
  interface ProxyServices {
    /** Refresh every credential file that is due now (tests and operators need not wait for the timer). */
    credentialFiles?: { refreshDue(): Promise<unknown> }
  }
}

/** How often tokens are checked for refresh. */
export const refreshCheckMs = 30_000

/**
 * Credential files in `auth-dir`: loaded at start, watched (added, changed, deleted -> disabled),
 * tokens refreshed ahead of expiry one at a time per file and written back atomically; a failed
 * refresh blocks the credential with the reason.
 */
export default defineProxyPlugin({
  name: 'credential-files',
  after: ['routing', 'management'],
  configSchema: oauthClientsSchema,
  setup(kernel) {
    const store = new CredentialFileStore(kernel.config['auth-dir'])
    try { store.load() } catch (error) { kernel.logger.warn(`auth-dir ${store.dir}: ${(error as Error).message}`) }
    void sweepAtomicTempFiles(store.dir).catch(() => {})
    const routing = () => kernel.services.routingState
    const clientFor = (type: string) => oauthClientFor(kernel.config, type)

    // Service accounts: access tokens from the JWT grant, kept in memory (the key file is never rewritten).
    const serviceTokens = new Map<string, { token: string; expiry: number }>()
    kernel.addCredentialSource(() => [...store.entries.values()].filter(entry => entry.file).map((entry) => {
      const token = serviceTokens.get(entry.name)
      return fileCredential(entry.name, token ? { ...entry.file!, access_token: token.token } : entry.file!, kernel.config)
    }))
    const syncStates = () => {
      for (const entry of store.entries.values()) if (entry.file) routing()?.setDisabled(`file:${entry.name}`, !!entry.deleted || entry.file.disabled === true)
    }
    syncStates()
    // No shared disk needed: with Redis, every instance's auth-dir follows the fleet's copy of each file.
    const sync = syncCredentialFiles(kernel, store, () => { kernel.refreshCredentials(); syncStates() })
    try {
      const watching = store.watch(() => {
        kernel.refreshCredentials()
        syncStates()
        void sync?.localChanged()
      })
      if (!watching) kernel.logger.info(`auth-dir ${store.dir} does not exist: no credential files (create it and restart to add some)`)
    } catch (error) {
      kernel.logger.warn(`cannot watch auth-dir ${store.dir}: ${(error as Error).message}`)
    }

    const inflight = new Map<string, Promise<void>>()
    const refresh = (name: string) => {
      const running = inflight.get(name)
      if (running) return running
      const entry = store.entries.get(name)
      const client = entry?.file && clientFor(entry.file.type)
      if (!entry?.file || !client) return Promise.resolve()
      const account = entry.file.service_account
      const work = account
        ? serviceAccountToken(account, kernel.config['oauth-clients'].delta?.['token-url']).then((token) => { serviceTokens.set(name, token) })
        : refreshUnderLease(kernel, name, sync, async () => {
          // Maybe another instance refreshed it while this one waited: then there is nothing to do.
          store.load()
          const current = store.entries.get(name)?.file
          if (!current || !isDue(current)) return false
          await refreshFile(store.dir, name, client)
          return true
        })
      const task = work.then((refreshed) => {
        store.load()
        kernel.refreshCredentials()
        if (refreshed === false) return
        routing()?.unblock(`file:${name}`)
        kernel.logger.info(`refreshed the token of ${name}`)
      }, (error: Error) => {
        routing()?.block(`file:${name}`, error.message)
        kernel.logger.warn(`${name}: ${error.message}`)
      }).finally(() => inflight.delete(name))
      inflight.set(name, task)
      return task
    }
    const due = (entry: { name: string; file?: import('./file-schema.ts').CredentialFile }) => {
      if (!entry.file) return false
      if (entry.file.service_account) {
        const token = serviceTokens.get(entry.name)
        return !token || token.expiry - Date.now() < refreshAheadMs
      }
      return isDue(entry.file)
    }
    // alpha-cli accounts need their code-assist project before the first request.
    const discover = (name: string) => {
      const key = `project:${name}`
      if (inflight.has(key)) return inflight.get(key)!
      const entry = store.entries.get(name)!
      const task = fillProject(store.dir, name, (entry.file!.base_url || channelDefaults['alpha-cli'].baseUrl).replace(/\/+$/, '')).then((project) => {
        store.load()
        kernel.refreshCredentials()
        kernel.logger.info(`${name}: code-assist project ${project}`)
      }, (error: Error) => {
        routing()?.block(`file:${name}`, `project discovery failed: ${error.message}`)
        kernel.logger.warn(`${name}: project discovery failed: ${error.message}`)
      }).finally(() => inflight.delete(key))
      inflight.set(key, task)
      return task
    }
    const needsProject = (entry: { file?: import('./file-schema.ts').CredentialFile; deleted?: boolean }) => !entry.deleted && entry.file?.type === 'alpha-cli' && !entry.file.project_id && !!entry.file.access_token
    const refreshDue = async () => {
      await Promise.all([...store.entries.values()].filter(entry => !entry.deleted && due(entry)).map(entry => refresh(entry.name)))
      await Promise.all([...store.entries.values()].filter(needsProject).map(entry => discover(entry.name)))
    }
    void refreshDue()
    const timer = setInterval(() => { void refreshDue() }, refreshCheckMs)
    timer.unref()
    kernel.hooks.hook('close', () => {
      clearInterval(timer)
      store.close()
      sync?.close()
    })
    kernel.services.credentialFiles = { refreshDue }

    const guard = kernel.services.managementGuard
    const changed = () => { kernel.refreshCredentials(); syncStates(); void sync?.localChanged() }
    if (guard) addAuthFileRoutes(kernel, guard, store, changed)
    addSignInRoutes(kernel, guard, store, changed)
  },
})
