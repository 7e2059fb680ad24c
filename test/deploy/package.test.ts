import { afterAll, describe, expect, it } from 'vitest'
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

/**
 * The package as a user gets it: `npm pack` output installed into an empty folder (runtime
 * dependencies only, from npm's cache when it has them), then `npx proxy init` and `npx proxy start`
 * from there answer a real request. Prints the installed size (docs/deploy.md quotes it).
 */
const run = promisify(execFile)
const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'proxy-pack-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }), 60_000)

const duMb = async (path: string) => Number((await run('du', ['-sm', path])).stdout.split('\t')[0])

describe('npm pack, installed into an empty folder', () => {
  it('installs with runtime dependencies only and `npx proxy start` answers', async () => {
    if (!existsSync(join(repoRoot, 'panel', 'dist', 'management.html'))) await (await import('../../panel/build.mjs')).buildPanel()
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: repoRoot })
    const tarball = readdirSync(dir).find(name => name.endsWith('.tgz'))!
    const app = join(dir, 'app')
    await run('mkdir', ['-p', app])
    writeFileSync(join(app, 'package.json'), '{"name":"pack-check","private":true}\n')
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(dir, tarball)], { cwd: app, timeout: 170_000 })
    const installed = readdirSync(join(app, 'node_modules'))
    for (const agent of ['@anthropic-ai', '@openai', 'opencode-ai', '@qwen-code', 'vitest', 'typescript']) expect(installed).not.toContain(agent)
    console.log(`npm pack: ${tarball}; installed into an empty folder: ${await duMb(join(app, 'node_modules'))} MB`)

    await run('npx', ['proxy', 'init'], { cwd: app })
    const child = spawn('npx', ['proxy', 'start', '--port', '0'], { cwd: app, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    try {
      let out = ''
      const url = await new Promise<string>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          out += chunk
          const match = /listening on (\S+)/.exec(out)
          if (match) resolve(match[1]!)
        }
        child.stdout.on('data', onData)
        child.stderr.on('data', onData)
        child.on('exit', code => reject(new Error(`exited ${code}: ${out}`)))
      })
      const health = await fetch(`${url}/healthz`)
      expect(health.status).toBe(200)
      expect((await fetch(`${url}/v1/models`)).status).toBe(401)
    } finally {
      // npx runs the server as its child: end the group.
      try { process.kill(-child.pid!, 'SIGKILL') } catch {}
    }
  }, 240_000)
})
