import { consola } from '../kernel/logger.ts'
import { ConfigError } from '../config/validate.ts'
import { startProxy, type StartOptions } from '../runtime/start.ts'
import { missingServerFlags } from './heap-flags.ts'
import { processRole } from '../runtime/process-role.ts'
import { guardProcess } from '../runtime/process-guard.ts'

/** Start and stay up until SIGINT/SIGTERM, then close cleanly and exit 0. Config errors exit 1 with no stack. */
/** How long open streams may run on after SIGINT/SIGTERM (PROXY_DRAIN_SECONDS). */
const drainMs = Number(process.env.PROXY_DRAIN_SECONDS ?? 10) * 1000

export async function serveUntilSignal(options: StartOptions): Promise<void> {
  // consola goes quiet under NODE_ENV=test and friends; a server's start-up line must always show.
  consola.level = 3
  // This process's stdout is the server's: request lines go there (plugins/access-log).
  processRole.cliServer = true
  let running
  try {
    running = await startProxy(options)
  } catch (error) {
    if (error instanceof ConfigError) {
      consola.error(error.message)
      process.exit(1)
    }
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      consola.error(`port already in use: ${(error as Error).message}`)
      process.exit(1)
    }
    throw error
  }
  // Said for `start` only: `dev` serves one developer, where the flag changes nothing that matters.
  const missing = options.watchCode ? [] : missingServerFlags()
  if (missing.length) running.proxy.kernel.logger.info(`node was started without ${missing.join(' ')}: under load after idling, V8's memory reducer can double the CPU per request (docs/operations.md, "Node flags")`)
  // From here on, a plugin's stray rejection or timer error is logged, not the end of every open request.
  guardProcess(message => running.proxy.kernel.logger.error(message))
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    // Through the app's own logger: the line reaches main.log too (its close flushes it).
    running.proxy.kernel.logger.info(`${signal}: shutting down (open requests get up to ${drainMs / 1000} s)`)
    running.proxy.kernel.services.draining = true
    const force = setTimeout(() => process.exit(0), drainMs + 5_000)
    force.unref()
    await running.close(drainMs).catch(error => consola.error(error))
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}
