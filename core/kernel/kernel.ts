import { H3, type H3Event } from 'h3'
import type { ConsolaInstance } from 'consola'
import { consola } from './logger.ts'
import type { Storage } from 'unstorage'
import type { WireCodec, WireFormat } from '../canonical/codec.ts'
import type { ProxyConfig } from '../config/schema.ts'
import type { Credential } from '../provider/credential.ts'
import type { Candidate } from './hooks.ts'
import { createProxyHooks, type ProxyHookBus } from './hook-bus.ts'
import type { ProviderDef } from '../provider/provider.ts'
import type { ModelInfo } from '../models/model-info.ts'
import { buildModelIndex } from '../models/model-index.ts'
import { createKeyMatcher, type ClientKeyDirectory } from '../edge/client-key.ts'
import type { z } from 'zod'
import { ConfigError, formatIssues } from '../config/validate.ts'
import { ConfigFile } from '../config/config-file.ts'
import { localFleet, type Fleet } from '../fleet/fleet.ts'
import { familyKeysSchema, payloadProtocolCheck, payloadProtocols } from '../config/family-schemas.ts'
import { ownConfig } from '../provider/provider.ts'
import { createLogLimiter } from './log-limit.ts'

/** Validate plugin-owned keys on a base-validated config (unknown keys are kept by the base schema). */
function withPluginKeys(config: ProxyConfig, schemas: z.ZodType[]): ProxyConfig {
  let out = config
  for (const schema of schemas) {
    const result = schema.safeParse(out)
    if (!result.success) throw new ConfigError(formatIssues(result.error))
    out = { ...out, ...(result.data as object) }
  }
  return out
}

/** `timeouts.hook-seconds`; an embedder's config that skipped validation has no `timeouts`: the default. */
export const hookSeconds = (config: ProxyConfig): number => config.timeouts?.['hook-seconds'] ?? 60

/** Services plugins offer each other (e.g. `routing`); plugins augment this interface with `declare module`. */
export interface ProxyServices {
  /** Routing state: whether a candidate is selectable now (true), cooling down until (ms), or out (false). */
  availability?: (candidate: Candidate) => true | number | false
  /** The client's address as access rules see it (default: the socket peer). A plugin behind a trusted reverse proxy may read a forwarded header instead. */
  clientAddress?: (event: H3Event) => string | undefined
  /** Set when shutdown has begun: readiness answers 503 while open streams finish. */
  draining?: boolean
  /** Client keys with names and rules (plugins/client-keys), checked after `api-keys`. */
  clientKeys?: ClientKeyDirectory
  /** Extra lines for `/readyz` while degraded, by name (e.g. how limits are enforced meanwhile). */
  readinessDetails?: Map<string, () => string | undefined>
}

/** What every plugin receives: the app, the hooks, live config, storage and the registries. */
export interface ProxyKernel {
  readonly app: H3
  /** Lifecycle hooks (docs/hooks.md): `hook`, `hookOnce`, `removeHook`, `callHook` (deciding), `callObservers`. */
  readonly hooks: ProxyHookBus
  readonly storage: Storage
  readonly logger: ConsolaInstance
  readonly config: ProxyConfig
  readonly formats: Map<WireFormat, WireCodec>
  readonly providers: Map<string, ProviderDef>
  /** Every known credential, API-key entries and credential files alike. */
  readonly credentials: Credential[]
  /** Client model name -> candidates (see core/models/model-index.ts). */
  readonly models: Map<string, Candidate[]>
  readonly services: ProxyServices
  /** Upstream model id -> what the catalogs know of it. */
  readonly modelInfo: Map<string, ModelInfo>
  /** The YAML file this config came from (management writes go there), if any. */
  readonly configPath?: string
  /** YAML layers under configPath (presets), lowest first. */
  readonly configBases: string[]
  /** The config file, when there is one: every change to it goes through here (queued, durable, shared). */
  readonly configFile?: ConfigFile
  /** This instance and the others sharing its storage: instance id, shared-store health, messages. */
  readonly fleet: Fleet
  /** A warning of one kind (`client-key`, `management-login`, ...), at most a few lines a minute. */
  warnLimited(kind: string, message: string): void
  registerFormat(codec: WireCodec): void
  /** A provider family: its config key joins the schema (if no declaration brought it already), its catalog the model info. */
  registerProvider(provider: ProviderDef<any>): void
  /** Payload rules may name the protocols of the families registered so far (call once they are). */
  checkPayloadProtocols(): void
  /** Extra credential sources (credential files, plugins); call `refreshCredentials()` when they change. */
  addCredentialSource(source: () => Credential[]): void
  refreshCredentials(): void
  /** Returns the matching client key, or undefined. */
  matchClientKey(key: string | undefined): string | undefined
  /** A plugin's own config keys: validated with the rest now and on every reload, defaults filled in. */
  addConfigSchema(schema: z.ZodType): void
  /** Every schema added by plugins: a management write checks them before it touches the file. */
  readonly configSchemas: readonly z.ZodType[]
  /** Swap in a new validated config and let plugins react (`config-reload`). */
  applyConfig(config: ProxyConfig): Promise<void>
}

export interface KernelOptions { config: ProxyConfig; storage: Storage; logger?: ConsolaInstance; configPath?: string; configBases?: string[]; fleet?: Fleet }

export function createKernel(options: KernelOptions): ProxyKernel {
  let config = options.config
  let credentials: Credential[] = []
  let models = new Map<string, Candidate[]>()
  let keyMatcher = createKeyMatcher(config['api-keys'])
  const sources: Array<() => Credential[]> = []
  const providers = new Map<string, ProviderDef>()
  const schemas: z.ZodType[] = []
  // Family config keys whose schema is already part of `schemas`.
  const familyKeys = new Set<string>()
  const logger = options.logger ?? consola.withTag('proxy')
  const warnLimited = createLogLimiter(message => logger.warn(message))
  let configFile: ConfigFile | undefined

  const kernel: ProxyKernel = {
    app: new H3(),
    hooks: createProxyHooks({ logError: message => logger.error(message), timeoutMs: () => hookSeconds(config) * 1000 }),
    storage: options.storage,
    logger,
    get config() { return config },
    formats: new Map(),
    providers,
    get credentials() { return credentials },
    get models() { return models },
    services: {},
    modelInfo: new Map(),
    configPath: options.configPath,
    configBases: options.configBases ?? [],
    get configFile() { return configFile },
    fleet: options.fleet ?? localFleet('local'),
    warnLimited: (kind, message) => warnLimited(kind, message),
    registerFormat(codec) { kernel.formats.set(codec.format, codec) },
    registerProvider(provider) {
      const key = provider.config?.key
      if (key && !familyKeys.has(key)) {
        familyKeys.add(key)
        kernel.addConfigSchema(familyKeysSchema([provider])!)
      }
      providers.set(provider.family, provider)
      for (const model of provider.models ?? []) if (!kernel.modelInfo.has(model.id)) kernel.modelInfo.set(model.id, model)
      kernel.refreshCredentials()
    },
    addCredentialSource(source) {
      sources.push(source)
      kernel.refreshCredentials()
    },
    refreshCredentials() {
      const next: Credential[] = []
      for (const provider of providers.values()) next.push(...provider.credentials(config, ownConfig(provider, config)))
      for (const source of sources) next.push(...source())
      credentials = next
      models = buildModelIndex(next, config['force-model-prefix'])
    },
    checkPayloadProtocols() {
      kernel.addConfigSchema(payloadProtocolCheck(payloadProtocols([...providers.values()])))
    },
    matchClientKey: key => keyMatcher(key) ?? (key === undefined ? undefined : kernel.services.clientKeys?.match(key)),
    configSchemas: schemas,
    addConfigSchema(schema) {
      schemas.push(schema)
      config = withPluginKeys(config, [schema])
    },
    async applyConfig(incoming) {
      const next = withPluginKeys(incoming, schemas)
      const previous = config
      config = next
      keyMatcher = createKeyMatcher(next['api-keys'])
      kernel.refreshCredentials()
      await kernel.hooks.callObservers('config-reload', next, previous)
    },
  }
  if (options.configPath) {
    configFile = new ConfigFile({
      path: options.configPath, bases: kernel.configBases, schemas: () => schemas, logger,
      current: () => config, apply: next => kernel.applyConfig(next),
    })
  }
  return kernel
}
