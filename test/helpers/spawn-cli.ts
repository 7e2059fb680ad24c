import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { serverNodeFlags } from '../../core/cli/heap-flags.ts'

export const binPath = fileURLToPath(new URL('../../core/cli/bin.mjs', import.meta.url))

export interface CliProcess {
  child: ChildProcess
  output: () => string
  /** Resolves with the URL the server printed, rejects if it exits first. */
  url: Promise<string>
  exit: Promise<number | null>
  kill(signal?: NodeJS.Signals): Promise<number | null>
}

/** Run `proxy <args>` as `npm start` does (node with the server's flags; `nodeFlags` to differ), collecting output. */
export function runCli(args: string[], cwd: string, env: Record<string, string> = {}, nodeFlags: readonly string[] = serverNodeFlags): CliProcess {
  const child = spawn(process.execPath, [...nodeFlags, binPath, ...args], { cwd, env: { ...process.env, ...env, CI: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let resolveUrl!: (url: string) => void
  let rejectUrl!: (error: Error) => void
  const url = new Promise<string>((resolve, reject) => { resolveUrl = resolve; rejectUrl = reject })
  const onData = (chunk: Buffer) => {
    out += chunk.toString()
    const match = /listening on (\S+)/.exec(out)
    if (match) resolveUrl(match[1]!)
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  const exit = new Promise<number | null>(resolve => child.on('exit', code => {
    rejectUrl(new Error(`exited with ${code} before listening:\n${out}`))
    resolve(code)
  }))
  url.catch(() => {})
  return {
    child,
    output: () => out,
    url,
    exit,
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal)
      return exit
    },
  }
}
