import type { Tracer } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base'
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions'
import type { TraceSettings } from './settings.ts'

export interface Tracing {
  tracer: Tracer
  /** Sends what is queued, then stops (on shutdown or when a reload turns tracing off). */
  shutdown(): Promise<void>
}

/**
 * A tracer provider of the proxy's own, exporting OTLP/HTTP (JSON) in batches from a background
 * timer, so a request never waits for the collector and a collector that is down costs dropped spans,
 * not failed requests. Not registered as the process's global provider: an embedding app keeps its own.
 */
export function createTracing(settings: TraceSettings, version: string): Tracing {
  const exporter = new OTLPTraceExporter({ url: settings.url, headers: settings.headers, timeoutMillis: 10_000 })
  const root = settings.sample >= 1 ? new AlwaysOnSampler() : new TraceIdRatioBasedSampler(settings.sample)
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, [ATTR_SERVICE_VERSION]: version }),
    sampler: new ParentBasedSampler({ root }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  })
  return {
    tracer: provider.getTracer('model-proxy', version),
    shutdown: () => provider.shutdown().catch(() => {}),
  }
}
