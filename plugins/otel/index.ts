import { readFileSync } from 'node:fs'
import { defineProxyPlugin, type ProxyKernel } from 'model-proxy'
import { createLogLimiter } from 'model-proxy/kit/guards'
import { otelConfigSchema, sameSettings, traceSettingsOf, type OtelConfig, type TraceSettings } from './settings.ts'
import type { Tracing } from './tracer.ts'

const version: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version

/**
 * OpenTelemetry traces over OTLP/HTTP (docs/otel.md): a span per request, a child span per upstream
 * attempt, GenAI semantic conventions plus routing attributes. Off unless an endpoint is configured;
 * off means no listener is registered, so the hot path does not know this plugin exists.
 */
export default defineProxyPlugin({
  name: 'otel',
  configSchema: otelConfigSchema,
  async setup(kernel) {
    let running: { settings: TraceSettings; tracing: Tracing; unhook: () => void } | undefined

    const applyNow = async (config: OtelConfig) => {
      const settings = traceSettingsOf(config, process.env)
      if (sameSettings(settings, running?.settings)) return
      const previous = running
      running = settings ? await start(kernel, settings) : undefined
      if (settings) kernel.logger.info(`otel: sending traces to ${settings.url}`)
      if (previous) {
        previous.unhook()
        await previous.tracing.shutdown()
      }
    }
    // One change at a time: starting loads the SDK first, and a reload must not race a start.
    let applying: Promise<void> = Promise.resolve()
    const apply = (config: OtelConfig) => applying = applying.catch(() => {}).then(() => applyNow(config))

    // Awaited: a configured proxy traces its first request.
    await apply(otelOf(kernel.config))
    kernel.hooks.hook('config-reload', config => apply(otelOf(config)))
    kernel.hooks.hook('close', async () => {
      await applying.catch(() => {})
      running?.unhook()
      await running?.tracing.shutdown()
      running = undefined
    })
  },
})

const otelOf = (config: object) => (config as { otel: OtelConfig }).otel

/**
 * The SDK is loaded only when traces are on: off (the default), an idle proxy was measured holding
 * 2.6 MB more heap with it loaded (docs/benchmarks.md, "Slow streams").
 */
async function start(kernel: ProxyKernel, settings: TraceSettings) {
  const [{ createTracing }, { createSpanRecorder }, { mcpToolSpan }] = await Promise.all([import('./tracer.ts'), import('./spans.ts'), import('./mcp-spans.ts')])
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
