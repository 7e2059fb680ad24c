import { afterEach, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import pkg from '../../package.json' with { type: 'json' }

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const running: CliProcess[] = []
const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-cli-'))
  dirs.push(dir)
  return dir
}
const start = (args: string[], cwd = repoRoot, nodeFlags?: string[]) => {
  const cli = runCli(args, cwd, {}, nodeFlags)
  running.push(cli)
  return cli
}

afterEach(async () => {
  await Promise.all(running.splice(0).map(cli => cli.kill('SIGKILL')))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('proxy CLI', () => {
  it('--version prints the package version', () => {
    const out = execFileSync(process.execPath, [join(repoRoot, 'core/cli/bin.mjs'), '--version'], { encoding: 'utf8' })
    expect(out.trim()).toBe(pkg.version)
  })

  it('start --config serves, reloads the YAML on change, and exits 0 on SIGTERM', async () => {
    const dir = tempDir()
    const yaml = join(dir, 'config.yaml')
    writeFileSync(yaml, `host: 127.0.0.1\napi-keys: [first-key]\nauth-dir: ${dir}/auths\n`)
    const cli = start(['start', '--config', yaml, '--port', '0', '--project', join(dir, 'none.config.ts')])
    const url = await cli.url
    const models = (key: string) => fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
    expect((await models('first-key')).status).toBe(200)
    writeFileSync(yaml, `host: 127.0.0.1\napi-keys: [second-key]\nauth-dir: ${dir}/auths\n`)
    await expect.poll(async () => (await models('second-key')).status, { timeout: 5000 }).toBe(200)
    expect((await models('first-key')).status).toBe(401)
    // An invalid edit is logged and the running config stays.
    writeFileSync(yaml, `host: 127.0.0.1\nport: 99999\napi-keys: [third-key]\n`)
    await expect.poll(() => cli.output(), { timeout: 5000 }).toContain('port: must be 1..65535')
    expect((await models('second-key')).status).toBe(200)
    expect((await models('third-key')).status).toBe(401)
    expect(cli.output()).not.toContain('was started without')
    expect(await cli.kill('SIGTERM')).toBe(0)
  })

  it('start without the server\'s Node flags says which are missing (docs/operations.md, "Node flags")', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'config.yaml'), `host: 127.0.0.1\napi-keys: [k]\nauth-dir: ${dir}/auths\n`)
    const cli = start(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.config.ts')], dir, [])
    await cli.url
    await expect.poll(() => cli.output(), { timeout: 5000 }).toContain('node was started without --no-memory-reducer')
  })

  it('SIGINT stops it cleanly too', async () => {
    const dir = tempDir()
    const cli = start(['start', '--config', join(dir, 'missing-is-ok.yaml'), '--port', '0', '--host', '127.0.0.1'], dir)
    await cli.url.catch(() => {})
    expect(cli.output()).toMatch(/cannot read|listening/)
    await cli.kill('SIGINT')
  })

  it('invalid config stops start-up naming each bad path, without a stack', async () => {
    const dir = tempDir()
    const yaml = join(dir, 'config.yaml')
    writeFileSync(yaml, 'port: 70000\nrouting:\n  strategy: random\n')
    const cli = start(['start', '--config', yaml], dir)
    expect(await cli.exit).toBe(1)
    expect(cli.output()).toContain('port: must be 1..65535')
    expect(cli.output()).toContain('routing.strategy: must be round-robin, fill-first or quota-aware')
    expect(cli.output()).not.toMatch(/\n\s+at /)
  })

  it('serves https with tls.enable', async () => {
    const dir = tempDir()
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' })
    const yaml = join(dir, 'config.yaml')
    writeFileSync(yaml, `host: 127.0.0.1\napi-keys: [k]\ntls:\n  enable: true\n  cert: ${dir}/cert.pem\n  key: ${dir}/key.pem\n`)
    const cli = start(['start', '--config', yaml, '--port', '0'], dir)
    const url = await cli.url
    expect(url).toMatch(/^https:/)
    const { request } = await import('node:https')
    const status = await new Promise<number>((resolve, reject) => {
      request(`${url}/v1/models`, { headers: { authorization: 'Bearer k' }, rejectUnauthorized: false }, res => { res.resume(); resolve(res.statusCode!) }).on('error', reject).end()
    })
    expect(status).toBe(200)
    // The https server is srvx's HTTP/2 one (HTTP/1.1 allowed): the drain must close it too, cleanly.
    const closed = new Promise(resolve => cli.child.once('close', resolve))
    expect(await cli.kill('SIGTERM')).toBe(0)
    await closed // every line it printed is in
    expect(cli.output()).not.toMatch(/is not a function|ERROR/)
  })

  it('dev starts the playground and answers through its mock upstream', async () => {
    const cli = start(['dev', '--port', '0'])
    const url = await cli.url
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-playground', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-gpt', messages: [{ role: 'user', content: 'hello' }] }),
    })
    expect(response.status).toBe(200)
    expect((await response.json()).choices[0].message.content).toContain('You said: hello')
  })
})
