import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export interface AgentCommand { bin: string; args: string[]; env: Record<string, string>; home?: Record<string, string>; timeoutMs?: number }
export interface AgentExit { code: number | null; stdout: string; stderr: string }

/**
 * Runs a coding-agent CLI once, headless, in a fresh HOME and working directory (both removed after),
 * stdin closed. Every call it tries to make off this machine goes to a closed loopback port (refused),
 * so only the proxy on 127.0.0.1 answers it; its process group dies at the timeout and after it exits.
 */
export async function runAgentProcess(build: (home: string, cwd: string) => AgentCommand): Promise<AgentExit> {
  const home = mkdtempSync(join(tmpdir(), 'agent-usage-'))
  const cwd = join(home, 'work')
  mkdirSync(cwd)
  const command = build(home, cwd)
  for (const [path, text] of Object.entries(command.home ?? {})) {
    mkdirSync(dirname(join(home, path)), { recursive: true })
    writeFileSync(join(home, path), text)
  }
  const refused = 'http://127.0.0.1:9'
  const env = {
    PATH: process.env.PATH!, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local/share'), XDG_STATE_HOME: join(home, '.local/state'), NO_COLOR: '1', CI: '1',
    HTTPS_PROXY: refused, HTTP_PROXY: refused, ALL_PROXY: refused, https_proxy: refused, http_proxy: refused, all_proxy: refused,
    NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost', ...command.env,
  }
  const child = spawn(command.bin, command.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk })
  const kill = () => { try { process.kill(-child.pid!, 'SIGKILL') } catch {} }
  const timer = setTimeout(kill, command.timeoutMs ?? 120_000)
  const code = await new Promise<number | null>((resolve) => {
    child.on('error', (error) => { stderr += String(error); resolve(-1) })
    child.on('close', resolve)
  })
  clearTimeout(timer)
  kill()
  rmSync(home, { recursive: true, force: true })
  return { code, stdout, stderr }
}
