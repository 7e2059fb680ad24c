import { resolve } from 'node:path'
import { z } from 'zod'
import { defineProxyPlugin, endedStatus } from 'model-proxy'
import { MainLog } from './main-log.ts'
import { formatLine, levelOf } from './line-format.ts'
import { redact, secretsOf } from './redact.ts'
import { requestLogText, writeRequestLog } from './request-logs.ts'
import { addLogRoutes } from './routes.ts'
import { LogsDirClaim } from './dir-claim.ts'
import { logAttempts } from './attempts.ts'

/**
 * File logging (`logging-to-file`): main.log in the documented line format with rotation and a size cap,
 * one line per request; request logs (`error-...` for failed requests, every request with
 * `request-log`); secrets redacted everywhere; the management log endpoints.
 */
const configSchema = z.looseObject({
  /**
   * Log folder; default `./logs` under the working directory (spec: Log files). Left at `logs`, a
   * second live instance in the same working directory writes to `logs/<instance-id>/`.
   */
  'logs-dir': z.string().default('logs'),
})
type LogsConfig = z.infer<typeof configSchema>

declare module 'model-proxy' {
  interface ProxyConfig extends LogsConfig {}
}

/** File logging: main.log with rotation, request logs for failed requests (or all), secrets redacted, the management log routes. */
export default defineProxyPlugin({
  name: 'logs',
  after: ['management'],
  configSchema,
  setup(kernel) {
    const configured = () => kernel.config['logs-dir']
    const claim = new LogsDirClaim(() => resolve(process.cwd(), 'logs'), kernel.fleet.instanceId)
    const dir = () => configured() === 'logs' ? claim.resolve() : resolve(process.cwd(), configured())
    const log = new MainLog(dir, () => kernel.config['logs-max-total-size-mb'])
    // Every line names its instance (inside the message: the spec's line format stays as it is).
    const tag = `[${kernel.fleet.instanceId}] `
    let secrets = secretsOf(kernel.config)
    kernel.hooks.hook('config-reload', (config) => { secrets = secretsOf(config) })
    const clean = (text: string) => redact(text, secrets)
    const write = (level: string, message: string) => {
      if (!kernel.config['logging-to-file']) return
      try {
        log.write(formatLine(new Date(), level, tag + clean(message)))
      } catch (error) {
        process.stderr.write(`log write failed: ${(error as Error).message}\n`)
      }
    }

    // Everything the kernel's logger says also goes to main.log.
    const reporter = {
      log(entry: { type: string; args: unknown[] }) {
        write(levelOf(entry.type), entry.args.map(arg => arg instanceof Error ? arg.message : typeof arg === 'string' ? arg : JSON.stringify(arg)).join(' '))
      },
    }
    kernel.logger.addReporter?.(reporter)
    // A rebuilt app (proxy dev) must not leave its reporter behind: lines would be written twice.
    kernel.hooks.hook('close', () => {
      kernel.logger.removeReporter?.(reporter)
      log.flush()
      claim.release()
    })
    logAttempts(kernel, write)

    // A request log reads the body at the end (every request's, or a failed one's: a stream can still
    // fail), so a stream answer keeps it while file logging is on (ProxyRequest.keepBody).
    kernel.hooks.hook('before-response', ({ request }) => {
      if (kernel.config['logging-to-file']) request.keepBody = true
    })

    kernel.hooks.hook('after-response', (ctx) => {
      // Logging off: no line is built either.
      if (!kernel.config['logging-to-file']) return
      const { request } = ctx
      const route = ctx.candidate ? ` -> ${ctx.candidate.upstreamModel} via ${ctx.candidate.credential.id}` : ''
      const status = endedStatus(ctx)
      write(status >= 500 ? 'ERROR' : status >= 400 ? 'WARN' : 'INFO', `${request.event.req.method} ${request.event.url.pathname} ${request.id} model=${request.model}${route} status=${status} ${ctx.durationMs}ms${ctx.error ? ` error=${ctx.error}` : ''}`)
      // Request logs are file logs too: nothing is written unless logging-to-file is on.
      const full = kernel.config['request-log']
      if (!full && ctx.status < 400 && !ctx.error) return
      try {
        writeRequestLog(dir(), full ? 'request' : 'error', ctx, requestLogText(ctx, clean), kernel.config['error-logs-max-files'])
      } catch (error) {
        process.stderr.write(`request log write failed: ${(error as Error).message}\n`)
      }
    })

    const guard = kernel.services.managementGuard
    if (guard) addLogRoutes(kernel, guard, log, dir)
  },
})
