import { consola } from '../kernel/logger.ts'

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

/** The flags a command declares (citty `args`), for `rejectUnknownFlags`. */
export type DeclaredArgs = Record<string, { type?: string; alias?: string | string[] }>

const kebab = (name: string) => name.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`)

/**
 * citty ignores what it does not know, so `--confg x` would start on the defaults. Any flag the
 * command does not declare, and any positional argument it takes none of, is a usage error naming it
 * (and the flag meant, when one is a letter or two away).
 */
export function rejectUnknownFlags(rawArgs: readonly string[], declared: DeclaredArgs): void {
  const known = new Set(['help', 'h', 'version', 'v'])
  for (const [name, def] of Object.entries(declared)) {
    if (def.type === 'positional') continue
    known.add(name).add(kebab(name))
    for (const alias of [def.alias ?? []].flat()) known.add(alias)
  }
  const takesPositional = Object.values(declared).some(def => def.type === 'positional')
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!
    if (arg === '--') break
    if (!arg.startsWith('-') || arg === '-') {
      if (!takesPositional) throw new UsageError(`unexpected argument "${arg}" (see --help)`)
      continue
    }
    const name = arg.replace(/^--?/, '').replace(/=.*$/, '').replace(/^no-/, '')
    if (known.has(name)) {
      // A string flag's value is the next argument (`--config file.yaml`): not a positional.
      const def = declared[name] ?? Object.values(declared).find(item => [item.alias ?? []].flat().includes(name))
      if (def?.type === 'string' && !arg.includes('=')) i++
      continue
    }
    const near = [...known].filter(option => option.length > 2).find(option => editDistance(option, name) <= 2)
    throw new UsageError(`unknown option ${arg.replace(/=.*$/, '')}${near ? ` (did you mean --${near}?)` : ''}; see --help`)
  }
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]!
}

/**
 * A command's `run`, with its flags checked first, and usage errors printed as one line and exit code 1
 * (citty would print the stack).
 */
export function exitOnUsageError<A extends { rawArgs: string[]; cmd: { args?: unknown } }>(run: (context: A) => Promise<void>): (context: A) => Promise<void> {
  return async context => {
    try {
      rejectUnknownFlags(context.rawArgs, (context.cmd.args ?? {}) as DeclaredArgs)
      await run(context)
    } catch (error) {
      if (!(error instanceof UsageError)) throw error
      consola.error(error.message)
      process.exit(1)
    }
  }
}
