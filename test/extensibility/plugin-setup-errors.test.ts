import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createProxy } from '../../core/app.ts'
import { ConfigError, validateConfig } from '../../core/config/validate.ts'
import { defineProxyPlugin } from '../../core/plugin-host/plugin.ts'
import { runCli } from '../helpers/spawn-cli.ts'

/** A plugin whose setup throws, rejects or never settles stops the start with one line naming it. */
const config = validateConfig({ 'auth-dir': '/nonexistent-auth-dir', timeouts: { 'hook-seconds': 1 } })
const failure = async (setup: () => unknown): Promise<string> => {
  const plugin = defineProxyPlugin({ name: 'fragile', setup: setup as never })
  const error = await createProxy({ config, plugins: [plugin], builtins: false }).then(() => undefined, (error: unknown) => error)
  expect(error).toBeInstanceOf(ConfigError)
  return (error as ConfigError).message
}

describe('a plugin whose setup fails', () => {
  it.each([
    ['throws', () => { throw new Error('no licence\n  for this host') }, 'plugin "fragile": its setup failed: no licence for this host'],
    ['rejects with a non-error', () => Promise.reject(42), 'plugin "fragile": its setup failed: 42'],
    ['never settles', () => new Promise(() => {}), 'plugin "fragile": its setup did not finish within 1 s (timeouts.hook-seconds)'],
  ])('%s: a ConfigError naming it', async (_, setup, expected) => {
    const message = await failure(setup)
    expect(message).toContain(expected)
    expect(message).not.toMatch(/\n\s+at /)
  })

  it('a ConfigError the setup throws on purpose is kept as it is', async () => {
    expect(await failure(() => { throw new ConfigError(['my-key: must be set']) })).toContain('my-key: must be set')
  })
})

describe('an embedder\'s config without `timeouts` (not validated)', () => {
  it('async setups and async listeners run with the default bound', async () => {
    const { timeouts: _timeouts, ...bare } = config
    let decided = false
    const plugin = defineProxyPlugin({ name: 'async', async setup(kernel) { kernel.hooks.hook('route-resolve', async () => { decided = true }) } })
    const proxy = await createProxy({ config: bare as typeof config, plugins: [plugin], builtins: false })
    await proxy.kernel.hooks.callHook('route-resolve', { request: {}, candidates: [] } as never)
    expect(decided).toBe(true)
    await proxy.close()
  })
})

describe('`proxy start` with such a plugin', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'plugin-setup-errors-'))
    // Waits on nothing: without a bound the event loop empties and Node exits 13, saying nothing.
    writeFileSync(join(dir, 'stuck.mjs'), "export default { name: 'stuck', setup() { return new Promise(() => {}) } }\n")
    writeFileSync(join(dir, 'proxy.config.mjs'), "export default { config: './config.yaml', plugins: ['./stuck.mjs'], storage: { driver: 'memory' } }\n")
    writeFileSync(join(dir, 'config.yaml'), `host: 127.0.0.1\napi-keys: [k]\nauth-dir: ${dir}/auths\ntimeouts: { hook-seconds: 1 }\n`)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('exits 1 with the line, not 13 with nothing', async () => {
    const cli = runCli(['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], dir)
    expect(await cli.exit).toBe(1)
    expect(cli.output()).toContain('plugin "stuck": its setup did not finish within 1 s')
  }, 30_000)
})
