import { readFileSync } from 'node:fs'
import { defineProxyPlugin, type ProxyKernel } from 'model-proxy'
import { createLogLimiter } from 'model-proxy/kit/guards'
import { otelConfigSchema, sameSettings, traceSettingsOf, type OtelConfig, type TraceSettings } from './settings.ts'
import { createTracing, type Tracing } from './tracer.ts'
import { createSpanRecorder } from './spans.ts'
import { mcpToolSpan } from './mcp-spans.ts'

const version: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version

/**
 * OpenTelemetry traces over OTLP/HTTP (docs/otel.md): a span per request, a child span per upstream
 * attempt, GenAI semantic conventions plus routing attributes. Off unless an endpoint is configured;
 * off means no listener is registered, so the hot path does not know this plugin exists.
 */
export default defineProxyPlugin({
  name: 'otel',
  configSchema: otelConfigSchema,
  setup(kernel) {
    let running: { settings: TraceSettings; tracing: Tracing; unhook: () => void } | undefined

    const apply = async (config: OtelConfig) => {
      const settings = traceSettingsOf(config, process.env)
      if (sameSettings(settings, running?.settings)) return
      const previous = running
      running = settings ? start(kernel, settings) : undefined
      if (settings) kernel.logger.info(`otel: sending traces to ${settings.url}`)
      if (previous) {
        previous.unhook()
        await previous.tracing.shutdown()
      }
    }

    void apply(otelOf(kernel.config))
    kernel.hooks.hook('config-reload', config => apply(otelOf(config)))
    kernel.hooks.hook('close', async () => {
      running?.unhook()
      await running?.tracing.shutdown()
      running = undefined
    })
  },
})

const otelOf = (config: object) => (config as { otel: OtelConfig }).otel

function start(kernel: ProxyKernel, settings: TraceSettings) {
  const report = createLogLimiter(message => kernel.logger.warn(message))
  const tracing = createTracing(settings, version, message => report('export', message))
  const spans = createSpanRecorder(tracing.tracer)
  const removers = [
    kernel.hooks.hook('route-resolve', spans.routeResolved),
    kernel.hooks.hook('before-upstream', spans.beforeUpstream),
    kernel.hooks.hook('attempt-result', spans.attemptResult),
    kernel.hooks.hook('after-response', spans.afterResponse),
  ]
  // MCP gateway tool calls (plugins/mcp), when it is loaded: one span each.
  const toolCalls = (kernel.services.mcpToolCall ??= [])
  const toolSpan = mcpToolSpan(tracing.tracer)
  toolCalls.push(toolSpan)
  removers.push(() => { if (toolCalls.includes(toolSpan)) toolCalls.splice(toolCalls.indexOf(toolSpan), 1) })
  return { settings, tracing, unhook: () => removers.forEach(remove => remove()) }
}
