import { defineProxyPlugin } from 'model-proxy'
import { sweepAtomicTempFiles } from 'model-proxy/kit/config'
import { CredentialFileStore } from './store.ts'
import { fileCredential } from './to-credential.ts'
import { isDue, refreshAheadMs, refreshFile } from './refresh.ts'
import { serviceAccountToken } from './service-account.ts'
import { oauthClientFor, oauthClientsSchema, oauthOverride, type OAuthClientsConfig } from './oauth-clients.ts'
import { fileChannels, serviceAccountType } from './channels.ts'
import { prepareFile } from './prepare.ts'
import { addSignInRoutes } from './routes-signin.ts'
import { addAuthFileRoutes } from './routes.ts'
import { syncCredentialFiles } from './fleet-sync.ts'
import { refreshUnderLease } from './refresh-lease.ts'

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
    // The file types, their families and sign-ins come from the registry (ProviderDef.credentialFile).
    const channels = () => fileChannels(kernel.providers.values())
    const store = new CredentialFileStore(kernel.config['auth-dir'], () => {
      const known = channels()
      return { all: [...known.keys()], serviceAccount: serviceAccountType(known) }
    })
    try { store.load() } catch (error) { kernel.logger.warn(`auth-dir ${store.dir}: ${(error as Error).message}`) }
    void sweepAtomicTempFiles(store.dir).catch(() => {})
    const routing = () => kernel.services.routingState
    const clientFor = (type: string) => oauthClientFor(kernel.config, type, channels())

    // Service accounts: access tokens from the JWT grant, kept in memory (the key file is never rewritten).
    const serviceTokens = new Map<string, { token: string; expiry: number }>()
    kernel.addCredentialSource(() => {
      const known = channels()
      return [...store.entries.values()].filter(entry => entry.file && known.has(entry.file.type)).map((entry) => {
        const token = serviceTokens.get(entry.name)
        return fileCredential(entry.name, token ? { ...entry.file!, access_token: token.token } : entry.file!, kernel.config, known.get(entry.file!.type)!)
      })
    })
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
      if (!watching) kernel.logger.info(`auth-dir ${store.dir} does not exist: no credential files (an upload or a sign-in creates it)`)
    } catch (error) {
      kernel.logger.warn(`cannot watch auth-dir ${store.dir}: ${(error as Error).message}`)
    }

    const inflight = new Map<string, Promise<void>>()
    const refresh = (name: string) => {
      const running = inflight.get(name)
      if (running) return running
      const entry = store.entries.get(name)
      const client = entry?.file && clientFor(entry.file.type)
      const grant = entry?.file && channels().get(entry.file.type)?.def.serviceAccount
      const account = entry?.file?.service_account
      if (!entry?.file || (account ? !grant : !client)) return Promise.resolve()
      const work = account
        ? serviceAccountToken(account, grant!, oauthOverride(kernel.config, entry.file.type)?.['token-url']).then((token) => { serviceTokens.set(name, token) })
        : refreshUnderLease(kernel, name, sync, async () => {
          // Maybe another instance refreshed it while this one waited: then there is nothing to do.
          store.load()
          const current = store.entries.get(name)?.file
          if (!current || !isDue(current)) return false
          await refreshFile(store.dir, name, client!)
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
    // A family's step before a file's first request (ProviderDef.credentialFile.prepare), once per file at a time.
    const prepare = (name: string) => {
      const key = `prepare:${name}`
      if (inflight.has(key)) return inflight.get(key)!
      const task = prepareFile(kernel, store, name, channels()).finally(() => inflight.delete(key))
      inflight.set(key, task)
      return task
    }
    const needsPrepare = (entry: { file?: import('./file-schema.ts').CredentialFile; deleted?: boolean }) => {
      const step = entry.file && channels().get(entry.file.type)?.def.prepare
      return !entry.deleted && !!step && step.needed(entry.file!)
    }
    const refreshDue = async () => {
      await Promise.all([...store.entries.values()].filter(entry => !entry.deleted && due(entry)).map(entry => refresh(entry.name)))
      await Promise.all([...store.entries.values()].filter(needsPrepare).map(entry => prepare(entry.name)))
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
    if (guard) addAuthFileRoutes(kernel, guard, store, changed, channels, sync?.uploading)
    addSignInRoutes(kernel, guard, store, changed, channels)
  },
})
