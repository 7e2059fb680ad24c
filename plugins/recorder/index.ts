import { defineProxyPlugin, type ProxyHooks, type ProxyConfig } from 'model-proxy'
import { credentialSecrets } from 'model-proxy/kit/access'
import type { Guard } from '../management/api.ts'
import { secretsOf } from '../logs/api.ts'
import { recorderConfigOf, recorderConfigSchema } from './schema.ts'
import { flightListeners, type Flight } from './flight.ts'
import { buildRecord } from './build.ts'
import { RecordStore } from './store.ts'
import { maskRecord } from './mask.ts'
import { addRecorderRoutes } from './routes.ts'
import { toolCallRecord } from './tool-call.ts'

/** How often finished flights are written (and the ring trimmed). */
const flushMs = 250
/** Age retention applies even when nothing new is recorded. */
const trimMs = 60_000

const failed = (flight: Flight) => flight.end!.status >= 400 || flight.end!.error !== undefined

/**
 * The flight recorder (docs/recorder.md): every hop of a request (client request, routing, each upstream
 * attempt as sent and answered, the client's answer) kept in a ring in the storage, read and replayed
 * through the management API. With `recorder.mode: off` none of its hooks is registered: the hot path
 * does not know it exists.
 */
export default defineProxyPlugin({
  name: 'recorder',
  configSchema: recorderConfigSchema,
  setup(kernel) {
    const settings = () => recorderConfigOf(kernel.config)
    let secrets = secretsOf(kernel.config)
    const store = new RecordStore(kernel.storage, {
      settings,
      build: flight => buildRecord(flight, {
        instance: kernel.fleet.instanceId,
        keyName: key => kernel.services.clientKeys?.nameOf(key),
        cost: (usage, model, upstreamModel) => kernel.services.prices?.costOfUsage(usage, model, upstreamModel),
      }),
      // Known secrets by value, field by field (mask.ts); headers are masked by name when captured (capture.ts).
      // A pass of the header-shaped regex over a record of agent-sized bodies cost more than the request.
      // Bodies are masked when read, with the config's secrets and every credential's (packed.ts).
      secrets: extra => [...extra, ...secrets],
      unmask: record => maskRecord(record, [...secrets, ...kernel.credentials.flatMap(credentialSecrets)]),
      warn: error => kernel.warnLimited('recorder', `recorder: ${(error as Error).message}`),
    })
    const listeners = flightListeners({
      follow: () => {
        const { mode, sample } = settings()
        return mode === 'all' || mode === 'errors' || (mode === 'sampled' && Math.random() < sample)
      },
      cap: () => settings()['max-body-kb'] * 1024,
      fault: error => kernel.warnLimited('recorder-hook', `recorder: a hook listener failed (the request goes on): ${(error as Error)?.stack ?? error}`),
      done: (flight) => {
        if (flight.replayOf !== undefined || settings().mode !== 'errors' || failed(flight)) store.add(flight)
      },
    })
    const hooks: { [N in keyof ProxyHooks]?: ProxyHooks[N] } = {
      'route-resolve': listeners['route-resolve'],
      'credential-pick': listeners['credential-pick'],
      'before-upstream': listeners['before-upstream'],
      'upstream-reply': listeners['upstream-reply'],
      'attempt-result': listeners['attempt-result'](() => kernel.services.availability),
      'after-response': listeners['after-response'],
    }
    let detach: Array<() => void> | undefined
    const apply = (config: ProxyConfig) => {
      secrets = secretsOf(config)
      const on = recorderConfigOf(config).mode !== 'off'
      if (on && !detach) detach = Object.entries(hooks).map(([name, fn]) => kernel.hooks.hook(name as keyof ProxyHooks, fn as never))
      if (!on && detach) {
        for (const off of detach) off()
        detach = undefined
      }
    }
    apply(kernel.config)
    kernel.hooks.hook('config-reload', config => apply(config))

    // MCP gateway tool calls (plugins/mcp), when it is loaded: one record each, by the same mode and sample.
    ;(kernel.services.mcpToolCall ??= []).push((call) => {
      const { mode, sample } = settings()
      if (mode === 'off' || (mode === 'errors' && call.outcome === 'ok') || (mode === 'sampled' && Math.random() >= sample)) return
      store.add(() => toolCallRecord(call, { instance: kernel.fleet.instanceId, cap: settings()['max-body-kb'] * 1024 }))
    })

    const flush = setInterval(() => { if (store.waiting) void store.flush().catch(() => {}) }, flushMs)
    flush.unref()
    const trim = setInterval(() => { if (settings().mode !== 'off') void store.trim().catch(() => {}) }, trimMs)
    trim.unref()
    kernel.hooks.hook('close', async () => {
      clearInterval(flush)
      clearInterval(trim)
      await store.flush().catch(() => {})
    })

    const guard = (kernel.services as { managementGuard?: Guard }).managementGuard
    if (guard) addRecorderRoutes(kernel, guard, store)
  },
})
