import { consola } from 'consola'

/** A mistake in how the CLI was called: shown as one line, never a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** `--port`: a whole number 0..65535 (0 = any free port), or absent. */
export function parsePort(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined
  const text = String(value)
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port must be a whole number from 0 to 65535 (0 picks a free port), not "${text}"`)
  return port
}

/** `proxy help [command]` is `proxy [command] --help`: usage on stdout, exit 0. */
export function helpArgs(argv: string[]): string[] {
  return argv[0] === 'help' ? [...argv.slice(1), '--help'] : argv
}

/** A command's `run`, with usage errors printed as one line and exit code 1 (citty would print the stack). */
export function exitOnUsageError<A>(run: (context: A) => Promise<void>): (context: A) => Promise<void> {
  return async context => {
    try {
      await run(context)
    } catch (error) {
      if (!(error instanceof UsageError)) throw error
      consola.error(error.message)
      process.exit(1)
    }
  }
}
