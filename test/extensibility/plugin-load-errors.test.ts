import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadPlugins } from '../../core/plugin-host/plugin.ts'
import { ConfigError } from '../../core/config/validate.ts'
import { runCli } from '../helpers/spawn-cli.ts'

/** A project plugin that cannot load stops the start with which one and why, in one line, never a loader's stack. */
let dir: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'plugin-load-errors-'))
  writeFileSync(join(dir, 'syntax.ts'), "import { defineProxyPlugin } from 'model-proxy'\nexport default defineProxyPlugin({ name: 'x', setup() { const y: number = ; } })\n")
  writeFileSync(join(dir, 'throws.mjs'), "throw new Error('the plugin refused to start: no licence')\n")
  writeFileSync(join(dir, 'dependency.mjs'), "import 'left-pad-that-is-not-installed'\nexport default { name: 'd', setup() {} }\n")
  writeFileSync(join(dir, 'no-default.mjs'), 'export const name = 1\n')
  writeFileSync(join(dir, 'proxy.config.mjs'), "export default { config: './config.yaml', plugins: ['./syntax.ts'], storage: { driver: 'memory' } }\n")
  writeFileSync(join(dir, 'config.yaml'), 'host: 127.0.0.1\napi-keys: [k]\n')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const failure = async (spec: string): Promise<string> => {
  const error = await loadPlugins([spec], dir).then(() => undefined, (error: unknown) => error)
  expect(error).toBeInstanceOf(ConfigError)
  const message = (error as ConfigError).message
  expect(message).not.toMatch(/Require stack|\n\s+at /)
  return message
}

describe('a project plugin that cannot load', () => {
  it.each([
    ['./missing.ts', `plugins: ./missing.ts: not found (from ${join(tmpdir())}`],
    ['./syntax.ts', 'plugins: ./syntax.ts: ParseError: Unexpected token'],
    ['./throws.mjs', 'plugins: ./throws.mjs: the plugin refused to start: no licence'],
    ['./dependency.mjs', "plugins: ./dependency.mjs: Cannot find module 'left-pad-that-is-not-installed'"],
    ['./no-default.mjs', 'plugins: ./no-default.mjs does not export a defineProxyPlugin() default'],
  ])('%s: says which and why', async (spec, expected) => {
    expect(await failure(spec)).toContain(expected)
  })

  it('the syntax error names the file and place', async () => {
    expect(await failure('./syntax.ts')).toContain(`${join(dir, 'syntax.ts')}:2:`)
  })

  it('`proxy start` exits 1 with that line and no stack', async () => {
    const cli = runCli(['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], dir)
    expect(await cli.exit).toBe(1)
    expect(cli.output()).toContain('plugins: ./syntax.ts: ParseError: Unexpected token')
    expect(cli.output()).not.toMatch(/\n\s+at /)
  }, 30_000)
})
