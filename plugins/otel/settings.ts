import { z } from 'zod'

/** The `otel` config key: traces go out only when an endpoint is set here or in the standard OTEL_* variables. */
export const otelConfigSchema = z.looseObject({
  otel: z.object({
    /** The collector: a base URL (`/v1/traces` is added, as for OTEL_EXPORTER_OTLP_ENDPOINT) or the full traces URL. */
    endpoint: z.string().url({ error: 'must be a URL such as http://127.0.0.1:4318' }).optional(),
    /** Extra headers on every export (an API key of a hosted collector). */
    headers: z.record(z.string(), z.string()).default({}),
    'service-name': z.string().min(1).optional(),
    /** Share of requests traced, 0 to 1 (a client's sampled `traceparent` is always followed). */
    sample: z.number({ error: 'must be a number' }).min(0, { error: 'must be >= 0' }).max(1, { error: 'must be <= 1' }).default(1),
    /** false turns tracing off even when the environment names an endpoint. */
    enable: z.boolean({ error: 'must be true or false' }).optional(),
  }).prefault({}),
})

export type OtelConfig = z.infer<typeof otelConfigSchema>['otel']

/** What the tracer is built from; undefined = tracing off. */
export interface TraceSettings {
  url: string
  headers: Record<string, string>
  serviceName: string
  sample: number
}

type Env = Record<string, string | undefined>

/**
 * The traces URL the way OpenTelemetry SDKs read it: the config's endpoint, else
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (as is), else OTEL_EXPORTER_OTLP_ENDPOINT plus `/v1/traces`.
 * Off with `enable: false`, OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 */
export function traceSettingsOf(config: OtelConfig, env: Env): TraceSettings | undefined {
  if (config.enable === false) return undefined
  if (!config.endpoint && (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none')) return undefined
  const url = config.endpoint ? withTracesPath(config.endpoint) : env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || baseUrl(env.OTEL_EXPORTER_OTLP_ENDPOINT)
  if (!url) return undefined
  return { url, headers: config.headers, serviceName: config['service-name'] ?? (env.OTEL_SERVICE_NAME?.trim() || 'model-proxy'), sample: config.sample }
}

const baseUrl = (value: string | undefined) => value?.trim() ? `${value.trim().replace(/\/+$/, '')}/v1/traces` : undefined
const withTracesPath = (endpoint: string) => /\/v1\/traces\/?$/.test(endpoint) ? endpoint : `${endpoint.replace(/\/+$/, '')}/v1/traces`

/** Whether two settings build the same exporter (a reload that changes nothing keeps the running one). */
export const sameSettings = (a: TraceSettings | undefined, b: TraceSettings | undefined) => JSON.stringify(a) === JSON.stringify(b)
