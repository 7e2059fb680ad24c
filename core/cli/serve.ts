import { consola } from 'consola'
import { ConfigError } from '../config/validate.ts'
import { startProxy, type StartOptions } from '../runtime/start.ts'
import { missingServerFlags } from './heap-flags.ts'
import { processRole } from '../runtime/process-role.ts'

/** Start and stay up until SIGINT/SIGTERM, then close cleanly and exit 0. Config errors exit 1 with no stack. */
/** How long open streams may run on after SIGINT/SIGTERM (PROXY_DRAIN_SECONDS). */
const drainMs = Number(process.env.PROXY_DRAIN_SECONDS ?? 10) * 1000

export async function serveUntilSignal(options: StartOptions): Promise<void> {
  // consola goes quiet under NODE_ENV=test and friends; a server's start-up line must always show.
  consola.level = 3
  // consola formats a local time for every line and shows it only beside a terminal's right edge. Each
  // format loads ICU's date and time zone data: ~5.5 MB of the Node binary resident and ~2 MB of heap
  // outside V8 from the first line on, for nothing when the output goes to a file or a collector.
  if (!process.stdout.isTTY) consola.options.formatOptions.date = false
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
