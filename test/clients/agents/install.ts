import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The lab's own folder for the coding-agent CLIs (its package.json and lockfile pin the releases under test). */
export const agentsDir = fileURLToPath(new URL('.', import.meta.url))
const bins = ['claude', 'codex', 'gemini', 'opencode', 'qwen']
/** Written when the install failed: the lab's agent tests skip with this reason. */
const failureFile = join(agentsDir, 'node_modules', '.install-failed')

/** Whether every agent's executable is there (in `dir`'s node_modules/.bin). */
export const agentsInstalled = (dir = agentsDir) => bins.every(bin => existsSync(join(dir, 'node_modules', '.bin', bin)))

/** Why the agents are not there, or undefined when they are. */
export function agentsMissing(dir = agentsDir): string | undefined {
  if (agentsInstalled(dir)) return undefined
  const reason = existsSync(join(dir, 'node_modules', '.install-failed')) ? readFileSync(join(dir, 'node_modules', '.install-failed'), 'utf8').trim() : 'not installed'
  return `the coding-agent CLIs are not installed in ${dir} (${reason}): run \`npm install --prefix test/clients/agents\``
}

/**
 * Install the agent CLIs the lab's lockfile names (each the newest release when the lab last passed with
 * it; `npm run clients:latest` tries what the registry serves now), unless they are there. They are
 * not dependencies of the package (about 1.9 GB), so a user's `npm install` stays light; the lab pulls
 * them the first time its tests run. A failure (no network) is recorded, and the agent tests skip
 * saying why.
 */
export function installAgents(): void {
  if (agentsInstalled()) return
  rmSync(failureFile, { force: true })
  process.stderr.write(`client lab: installing the coding-agent CLIs into ${agentsDir} (from its lockfile) ...\n`)
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: agentsDir, encoding: 'utf8', timeout: 15 * 60_000 })
  if (result.status === 0 && agentsInstalled()) return
  const reason = `npm install failed: ${(result.error?.message ?? result.stderr ?? '').trim().split('\n').slice(-3).join(' ').slice(0, 300) || `exit ${result.status}`}`
  try { writeFileSync(failureFile, reason) } catch {}
  process.stderr.write(`client lab: ${reason}; the agent tests will be skipped\n`)
}
