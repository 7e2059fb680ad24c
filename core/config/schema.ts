import { z } from 'zod'
import { aliasEntrySchema, proxyUrlSchema, payloadFilterRuleSchema, payloadRuleSchema } from './schema-entries.ts'
import { fallbacksSchema, routingExtraSchema } from './schema-routing.ts'
import { storageSchema } from './storage-schema.ts'

const int = (min: number, max = Number.MAX_SAFE_INTEGER, range = `${min}..${max}`) =>
  z.number({ error: 'must be a number' }).int({ error: 'must be an integer' })
    .min(min, { error: `must be ${range}` }).max(max, { error: `must be ${range}` })
const nonNegative = () => int(0, Number.MAX_SAFE_INTEGER, '>= 0')
const bool = () => z.boolean({ error: 'must be true or false' })

/**
 * The server configuration (spec: "Server configuration object"), one key per entry with the spec's
 * defaults. Unknown top-level keys are kept: provider families bring their own keys (`ProviderDef.config`)
 * and plugins theirs (`configSchema`), joined before the YAML is validated (core/config/family-schemas.ts).
 */
export const configSchema = z.looseObject({
  host: z.string().default(''),
  port: int(1, 65535).default(8317),
  debug: bool().default(false),
  'api-keys': z.array(z.string().min(1, { error: 'must be a non-empty key' })).default([]),
  'remote-management': z.object({
    'allow-remote': bool().default(false),
    'secret-key': z.string().default(''),
    'disable-control-panel': bool().default(false),
  }).prefault({}),
  'usage-statistics-enabled': bool().default(false),
  'logging-to-file': bool().default(false),
  'request-log': bool().default(false),
  'logs-max-total-size-mb': nonNegative().default(0),
  'error-logs-max-files': nonNegative().default(10),
  'proxy-url': proxyUrlSchema.default(''),
  'request-retry': nonNegative().default(3),
  'max-retry-credentials': nonNegative().default(0),
  'max-retry-interval': nonNegative().default(30),
  'quota-exceeded': z.object({
    'switch-project': bool().default(true),
    'switch-preview-model': bool().default(true),
  }).prefault({}),
  routing: z.object({
    strategy: z.enum(['round-robin', 'fill-first', 'quota-aware'], { error: 'must be round-robin, fill-first or quota-aware' }).default('round-robin'),
    ...routingExtraSchema,
  }).prefault({}),
  fallbacks: fallbacksSchema,
  streaming: z.object({
    'keepalive-seconds': nonNegative().default(0),
    'bootstrap-retries': nonNegative().default(0),
  }).prefault({}),
  'nonstream-keepalive-interval': nonNegative().default(0),
  'passthrough-headers': bool().default(false),
  'ws-auth': bool().default(false),
  'force-model-prefix': bool().default(false),
  tls: z.object({
    enable: bool().default(false),
    cert: z.string().default(''),
    key: z.string().default(''),
  }).prefault({}),
  payload: z.object({
    default: z.array(payloadRuleSchema).default([]),
    'default-raw': z.array(payloadRuleSchema).default([]),
    override: z.array(payloadRuleSchema).default([]),
    'override-raw': z.array(payloadRuleSchema).default([]),
    filter: z.array(payloadFilterRuleSchema).default([]),
  }).prefault({}),
  'oauth-model-alias': z.record(z.string(), z.array(aliasEntrySchema)).default({}),
  'oauth-excluded-models': z.record(z.string(), z.array(z.string())).default({}),
  /** Upstream timeouts, seconds (our addition): a connect or first-byte timeout fails over; a stream idle past its limit ends with an error event. */
  timeouts: z.object({
    'connect-seconds': int(1, 3600).default(10),
    'first-byte-seconds': int(1, 3600).default(300),
    'stream-idle-seconds': int(1, 3600).default(300),
    /** How long one async plugin listener (or a plugin's setup) may run before it counts as failed. */
    'hook-seconds': int(1, 3600).default(60),
  }).prefault({}),
  /** Largest request body accepted, MB (413 in the client's format above it). Our addition. */
  'max-request-body-mb': int(1, 4096).default(64),
  /** Where OAuth credential files live; `~` is the user's home. Not in the spec's table: our addition. */
  'auth-dir': z.string().default('~/.model-proxy/auths'),
  /** Where state lives (fs, redis, memory): read at start, over proxy.config.ts, under PROXY_STORAGE_*. Our addition. */
  storage: storageSchema,
})

/** The keys the core schema knows. */
export type CoreConfig = z.infer<typeof configSchema>

/**
 * The live config: the core's keys plus every plugin's own. A plugin that adds keys (its `configSchema`)
 * types them with `declare module 'model-proxy' { interface ProxyConfig { 'my-key': string } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ProxyConfig extends CoreConfig {}
