import { z } from 'zod'
import { defineProxyPlugin, endedStatus } from 'model-proxy'
import { credentialSecrets, maskSecret, maskValues } from 'model-proxy/kit/access'
import { processRole } from 'model-proxy/kit/fleet'
import { shownModelName } from 'model-proxy/kit/models'
import { jsonLine, textLine, type AccessEntry } from './line.ts'

const modes = ['auto', 'text', 'json', 'off'] as const
type Mode = typeof modes[number]

const configSchema = z.looseObject({
  /**
   * One line per request on stdout. `auto`: text on a terminal, JSON lines otherwise, in a server the
   * CLI started (none in a proxy built in code). `PROXY_ACCESS_LOG` overrides it.
   */
  'access-log': z.enum(modes, { error: 'must be auto, text, json or off' }).default('auto'),
})
type AccessLogConfig = z.infer<typeof configSchema>

declare module 'model-proxy' {
  interface ProxyConfig extends AccessLogConfig {}
}

/** The format in effect now: the environment over the YAML; `auto` decided by the process and its stdout. */
export function accessLogFormat(configured: Mode, env: string | undefined, cliServer: boolean, tty: boolean): 'text' | 'json' | undefined {
  const mode = (modes as readonly string[]).includes(env ?? '') ? env as Mode : configured
  if (mode === 'off') return undefined
  if (mode === 'auto') return cliServer ? tty ? 'text' : 'json' : undefined
  return mode
}

/**
 * The access log: one line per finished request on stdout, whether or not `logging-to-file` is on, for
 * `docker logs`, journald or a log collector. Secrets never reach it: a client key shows by its name
 * (or mask), a credential by its id.
 */
export default defineProxyPlugin({
  name: 'access-log',
  after: ['client-keys'],
  configSchema,
  setup(kernel) {
    // Read once: both are getters into the runtime, about a microsecond a request between them.
    const env = process.env.PROXY_ACCESS_LOG
    const tty = process.stdout.isTTY === true
    kernel.hooks.hook('after-response', (ctx) => {
      const format = accessLogFormat(kernel.config['access-log'], env, processRole.cliServer, tty)
      if (!format) return
      const { request, candidate, usage } = ctx
      const key = request.clientKey
      const entry: AccessEntry = {
        time: new Date().toISOString(),
        id: request.id,
        method: request.event.req.method,
        path: request.event.url.pathname,
        status: endedStatus(ctx),
        ...(key !== undefined && { key: kernel.services.clientKeys?.nameOf(key) ?? maskSecret(key) }),
        model: shownModelName(request.model),
        ...(request.servedModel && { servedModel: request.servedModel }),
        ...(candidate && { upstreamModel: candidate.upstreamModel, family: candidate.credential.family, credential: candidate.credential.id }),
        ...(usage && { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }),
        latencyMs: Math.round(ctx.durationMs),
        // An upstream's message may quote the key it refused: masked like every log line.
        ...(ctx.error && { error: maskValues(ctx.error, [key, ...(candidate ? credentialSecrets(candidate.credential) : [])]) }),
      }
      process.stdout.write(`${format === 'json' ? jsonLine(entry) : textLine(entry)}\n`)
    })
  },
})
