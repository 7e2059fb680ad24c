import { readFileSync, watch, type FSWatcher } from 'node:fs'
import { dirname } from 'node:path'
import type { ConsolaInstance } from 'consola'
import { consola } from '../kernel/logger.ts'
import { createProxy, type Proxy } from '../app.ts'
import { loadProject, type LoadedProject } from '../config/load.ts'
import { ConfigError } from '../config/validate.ts'
import { watchFile, type FileWatch } from '../config/watch-file.ts'
import { instanceIdFor } from '../fleet/instance-id.ts'
import { createProxyStorage, type StorageOptions } from '../storage/storage.ts'
import { resolveStorage, storageSettingsFromEnv } from '../config/storage-settings.ts'
import { listen, type RunningServer } from './server.ts'
import { endOpenAnswers, openAnswersOf } from '../pipeline/open-answers.ts'

export interface StartOptions {
  cwd: string
  /** `--config`: the YAML file. */
  yamlPath?: string
  /** A proxy.config.ts other than `<cwd>/proxy.config.ts`. */
  projectFile?: string
  port?: number
  host?: string
  /** Reload on YAML change (always) and rebuild on proxy.config.ts / plugin change (dev). */
  watchCode?: boolean
  logger?: ConsolaInstance
  /** Runs on the loaded project before anything starts: throw to refuse the start (`proxy start`'s checks). */
  check?: (loaded: LoadedProject) => void
}

export interface RunningProxy {
  url: string
  readonly proxy: Proxy
  /** Rebuild the app from disk (plugins included); open streams keep running on the old one. */
  rebuild(): Promise<void>
  /** Stop accepting; open streams get up to `drainMs` to finish. */
  close(drainMs?: number): Promise<void>
}

/** Environment (PROXY_STORAGE_*) over config.yaml's `storage` over proxy.config.ts over fs `.data/`. */
function storageOptions(loaded: LoadedProject): StorageOptions {
  const env = storageSettingsFromEnv(process.env, path => readFileSync(path, 'utf8'))
  return resolveStorage(loaded.project.storage, loaded.config.storage, env, { code: loaded.root, yaml: loaded.yamlPath ? dirname(loaded.yamlPath) : loaded.root, env: process.cwd() })
}

/** Load config, build the app, listen, and keep it in step with the files on disk. */
export async function startProxy(options: StartOptions): Promise<RunningProxy> {
  const logger = options.logger ?? consola.withTag('proxy')
  let loaded = await loadProject(options)
  options.check?.(loaded)
  const storage = await createProxyStorage(storageOptions(loaded))
  const instanceId = instanceIdFor(options.port ?? loaded.config.port)
  // The plugins came loaded with the config (built-ins first): their keys were part of its validation.
  const build = (project: LoadedProject) => createProxy({ config: project.config, plugins: project.plugins, builtins: false, storage, cwd: project.root, logger, configPath: project.yamlPath, configBases: project.yamlBases, instanceId })
  let proxy = await build(loaded)
  // Apps replaced by a rebuild whose streams may still be running (they finish on the old app).
  const retired = new Set<Proxy>()
  const server: RunningServer = await listen(() => proxy, loaded.config, { port: options.port, host: options.host })
  const everywhere = !(options.host ?? loaded.config.host) ? ' (every interface)' : ''
  logger.info(`listening on ${server.url}${everywhere} as instance ${instanceId}${loaded.yamlPath ? ` (config ${loaded.yamlPath})` : ' (no config file: defaults)'}`)

  const watchers: FSWatcher[] = []
  const fileWatches: FileWatch[] = []
  let timer: NodeJS.Timeout | undefined
  const debounce = (fn: () => Promise<void>) => {
    clearTimeout(timer)
    timer = setTimeout(() => { fn().catch(error => logger.error(error instanceof ConfigError ? error.message : error)) }, 150)
  }

  const running: RunningProxy = {
    url: server.url,
    get proxy() { return proxy },
    async rebuild() {
      const next = await loadProject(options)
      const fresh = await build(next)
      const old = proxy
      proxy = fresh
      loaded = next
      if (openAnswersOf(old.kernel).size) retired.add(old)
      for (const app of retired) if (!openAnswersOf(app.kernel).size) retired.delete(app)
      await old.kernel.hooks.callObservers('close')
      logger.info('reloaded plugins and config')
    },
    async close(drainMs = 0) {
      clearTimeout(timer)
      for (const watcher of watchers) watcher.close()
      for (const watch of fileWatches) watch.close()
      const apps = [proxy, ...retired]
      // Readiness answers 503 and client endpoints refuse new requests (503, Connection: close).
      for (const app of apps) app.kernel.services.draining = true
      await server.close(drainMs, {
        openAnswers: () => apps.reduce((sum, app) => sum + openAnswersOf(app.kernel).size, 0),
        endAnswers: () => { for (const app of apps) endOpenAnswers(app.kernel, 'the server is shutting down: this answer was cut at the end of its drain window') },
      })
      await proxy.close()
    },
  }

  // The proxy in use now: a rebuilt app (proxy dev) has its own config file object.
  if (loaded.yamlPath) fileWatches.push(watchFile(loaded.yamlPath, () => { void proxy.kernel.configFile?.reload('disk').catch(error => logger.error(error instanceof ConfigError ? error.message : error)) }))
  if (options.watchCode) {
    watchers.push(watch(loaded.root, { recursive: true }, (_event, file) => {
      if (file && /\.(ts|mjs|js)$/.test(file) && !file.includes('node_modules')) debounce(() => running.rebuild())
    }))
  }
  return running
}
