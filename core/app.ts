import type { Storage } from 'unstorage'
import type { ConsolaInstance } from 'consola'
import type { ProxyConfig } from './config/schema.ts'
import { createKernel, type ProxyKernel } from './kernel/kernel.ts'
import { loadPlugins, type PluginSpec } from './plugin-host/plugin.ts'
import { builtinPlugins } from './plugin-host/builtins.ts'
import { orderPlugins } from './plugin-host/plugin-order.ts'
import { setupPlugin } from './plugin-host/setup.ts'
import { answerHead, corsHeaders, discardBody, hasBaseHeaders, jsonResponse } from './edge/respond.ts'
import { pathErrorResponse } from './errors/path-errors.ts'
import { createProxyStorage } from './storage/storage.ts'
import { sweepAtomicTempFiles } from './config/sweep-temp.ts'
import { dirname } from 'node:path'
import { createFleet } from './fleet/create.ts'
import { instanceIdFor } from './fleet/instance-id.ts'
import { attachConfigSync } from './fleet/config-sync.ts'
import { readiness } from './runtime/readiness.ts'

export interface CreateProxyOptions {
  config: ProxyConfig
  /** Extra plugins (paths resolved from `cwd`, or plugin objects), loaded after the built-ins. */
  plugins?: PluginSpec[]
  /** false = load no built-in plugins (for tests of the kernel alone). */
  builtins?: boolean
  storage?: Storage
  cwd?: string
  logger?: ConsolaInstance
  /** The YAML file the config came from: management writes go there. */
  configPath?: string
  /** YAML layers under configPath (presets), lowest first. */
  configBases?: string[]
  /** This instance's name in logs and shared state (default: core/fleet/instance-id.ts). */
  instanceId?: string
}

export interface Proxy {
  kernel: ProxyKernel
  fetch(request: Request): Promise<Response>
  close(): Promise<void>
}

/** Build the app: kernel, CORS on every response, plugins, and a JSON 404 for everything else. */
export async function createProxy(options: CreateProxyOptions): Promise<Proxy> {
  const storage = options.storage ?? await createProxyStorage({ driver: 'memory' })
  const fleet = createFleet(storage, options.instanceId ?? instanceIdFor(options.config.port))
  const kernel = createKernel({ config: options.config, storage, logger: options.logger, configPath: options.configPath, configBases: options.configBases, fleet })
  const { app } = kernel
  // A process killed mid-write may have left `.config.yaml.<pid>-<host>-<random>.tmp` beside the file.
  if (options.configPath) void sweepAtomicTempFiles(dirname(options.configPath)).catch(() => {})
  // Several instances on one Redis: the config file follows the fleet's shared version (pulled here, before plugins start).
  // Shared state is read before plugins start: Redis answers within the connect timeout, or is taken as
  // away (the instance then starts on its own files and state, and reconciles when Redis comes).
  if (fleet.shared) await fleet.settled(2500)
  if (kernel.configFile && fleet.shared) {
    const detach = attachConfigSync(kernel.configFile, fleet, { bases: kernel.configBases, schemas: () => kernel.configSchemas, logger: kernel.logger })
    kernel.hooks.hook('close', detach)
    await kernel.configFile.reload('fleet').catch(error => kernel.logger.warn(`config sync at start: ${(error as Error).message}`))
  }

  app.use(async (event, next) => {
    if (event.req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { ...corsHeaders, 'access-control-max-age': '86400' } })
    // Every answer carries a request id: the caller's own X-Request-ID when it sent one.
    const inbound = event.req.headers.get('x-request-id')
    // Only safe ids are kept: they end up in log file names.
    const id = inbound && /^[\w.-]{1,128}$/.test(inbound) ? inbound : crypto.randomUUID()
    event.context.requestId = id
    event.context.baseHeaders = { ...corsHeaders, 'x-request-id': id }
    event.context.maxBodyBytes = kernel.config['max-request-body-mb'] * 1024 * 1024
    const response = await next()
    if (response instanceof Response && !hasBaseHeaders.get(response)) {
      for (const name in corsHeaders) response.headers.set(name, corsHeaders[name]!)
      if (!response.headers.has('x-request-id')) response.headers.set('x-request-id', id)
    }
    // Shutting down: no connection is kept alive for a next request.
    if (kernel.services.draining && response instanceof Response) response.headers.set('connection', 'close')
    return response
  })
  app.get('/healthz', () => jsonResponse({ status: 'ok' }))
  app.get('/readyz', () => readiness(kernel))

  const specs = [...(options.builtins === false ? [] : builtinPlugins), ...(options.plugins ?? [])]
  const plugins = orderPlugins(await loadPlugins(specs, options.cwd ?? process.cwd()))
  // Every declared family first: plugins set up after see the whole registry, and the config has every key.
  for (const plugin of plugins) for (const provider of plugin.providers ?? []) kernel.registerProvider(provider)
  kernel.checkPayloadProtocols()
  for (const plugin of plugins) {
    if (plugin.configSchema) kernel.addConfigSchema(plugin.configSchema)
    await setupPlugin(kernel, plugin)
  }

  // After the plugins' own close hooks, which may still share something on the way out.
  kernel.hooks.hook('close', () => fleet.close())

  app.all('/**', async (event) => {
    if (event.req.method === 'HEAD') return answerHead(app, event)
    await discardBody(event.req)
    return pathErrorResponse(kernel, event.url.pathname, { status: 404, message: `no route for ${event.req.method} ${event.url.pathname}`, type: 'invalid_request_error', code: 'not_found' })
  })
  // What no route answered (a URL that does not decode, a throw outside a route) reads as the path's clients' own error.
  app.config.onError = (error, event) => {
    const status = error.status >= 400 && error.status < 500 ? error.status : 500
    if (status >= 500) kernel.logger.error(`${event.req.method} ${event.url.pathname}:`, error)
    const message = status >= 500 ? 'internal server error' : error.message && error.message !== 'Bad Request' ? error.message : 'the request URL is not valid (it does not percent-decode)'
    return pathErrorResponse(kernel, event.url.pathname, { status, message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: status === 400 ? 'invalid_url' : undefined }, corsHeaders)
  }

  return {
    kernel,
    fetch: async request => await app.fetch(request),
    async close() {
      await kernel.hooks.callObservers('close')
      await storage.dispose()
    },
  }
}
