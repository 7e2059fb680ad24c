import type { Tracer } from '@opentelemetry/api'
import { ExportResultCode } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, type SpanExporter } from '@opentelemetry/sdk-trace-base'
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
 * not failed requests (`onExportError` says so in the log). Not registered as the process's global
 * provider: an embedding app keeps its own.
 */
export function createTracing(settings: TraceSettings, version: string, onExportError: (message: string) => void): Tracing {
  const exporter = reporting(new OTLPTraceExporter({ url: settings.url, headers: settings.headers, timeoutMillis: 10_000 }), settings.url, onExportError)
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

/** The exporter, telling the operator when a batch could not be delivered (the SDK itself stays silent). */
function reporting(exporter: SpanExporter, url: string, onError: (message: string) => void): SpanExporter {
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) onError(`otel: ${spans.length} span(s) not delivered to ${url}: ${result.error?.message ?? 'export failed'}`)
        done(result)
      })
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  }
}
