import { createLogLimiter } from '../kernel/log-limit.ts'

/**
 * The server process outlives a plugin's stray failure: a promise it rejected and nobody awaited, or an
 * error thrown in its own timer, reaches no hook (the bus only sees what a listener returns), and Node's
 * default for either is to end the process, every open request with it. Logged instead (at most 10 lines
 * a minute of each kind, then a count), and the server keeps serving. Installed by `proxy start`/`dev`
 * only: an embedder keeps its own process policy.
 */
export function guardProcess(logError: (message: string) => void, target: NodeJS.Process = process): () => void {
  const report = createLogLimiter(logError)
  const onRejection = (reason: unknown) => report('unhandledRejection', `a promise rejected and nobody handled it (a plugin's stray promise?); the server goes on: ${describe(reason)}`)
  const onException = (error: unknown) => report('uncaughtException', `an error was thrown outside any request (a plugin's timer or callback?); the server goes on: ${describe(error)}`)
  target.on('unhandledRejection', onRejection)
  target.on('uncaughtException', onException)
  return () => {
    target.off('unhandledRejection', onRejection)
    target.off('uncaughtException', onException)
  }
}

function describe(error: unknown): string {
  try {
    return error instanceof Error ? error.stack ?? `${error.name}: ${error.message}` : String(error)
  } catch {
    return 'an unprintable value'
  }
}
