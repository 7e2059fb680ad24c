// An example `route-resolve` hook for routing that `routing.rules` cannot express: coding agents name
// their working directory in the system prompt ("Working directory: /path"), so requests about one
// repository can go to the model that suits it. It imports only the public entry.
import { z } from 'zod'
import { defineProxyPlugin } from 'model-proxy'

/** `route-by-workdir: { '/srv/monorepo': 'long-context-model' }`: a path prefix -> the model that serves it. */
const configSchema = z.looseObject({ 'route-by-workdir': z.record(z.string(), z.string()).default({}) })

const workdirPattern = /Working directory: (\S+)/

export default defineProxyPlugin({
  name: 'route-by-workdir',
  configSchema,
  setup(proxy) {
    proxy.hooks.hook('route-resolve', (ctx) => {
      const table = (proxy.config as { 'route-by-workdir'?: Record<string, string> })['route-by-workdir'] ?? {}
      const entries = Object.entries(table)
      if (!entries.length) return
      // Messages-format agents put it in `system`; chat-format ones in the first message.
      const body = ctx.request.body as { system?: unknown; messages?: unknown[] }
      const where = workdirPattern.exec(JSON.stringify(body.system ?? body.messages?.[0] ?? ''))?.[1]
      if (!where) return
      const target = entries.find(([prefix]) => where.startsWith(prefix))?.[1]
      const candidates = target ? proxy.models.get(target) : undefined
      if (!candidates?.length) return
      // Hooks run after the built-in resolution: replacing the candidates is the last word. The client
      // still sees its own model name; `x-proxy-served-model` and the usage record name this one.
      ctx.candidates = candidates
      ctx.request.servedModel = target
    })
  },
})
