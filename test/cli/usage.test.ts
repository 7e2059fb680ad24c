import { describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { binPath } from '../helpers/spawn-cli.ts'
import { helpArgs, parsePort, UsageError } from '../../core/cli/usage-error.ts'
import { presetNames } from '../../core/cli/build-server.ts'

interface Run { code: number | null; stdout: string; stderr: string }

/** `proxy <args>` as a user runs it, to its exit (these all end on their own within seconds). */
function proxy(args: string[], cwd = tmpdir()): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', CI: '1' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', chunk => { stdout += chunk })
    child.stderr.on('data', chunk => { stderr += chunk })
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`proxy ${args.join(' ')} did not exit:\n${stdout}${stderr}`)) }, 20_000)
    child.on('exit', code => { clearTimeout(timer); resolve({ code, stdout, stderr }) })
  })
}

const noStack = (run: Run) => expect(run.stdout + run.stderr).not.toMatch(/\n\s+at /)
/** The lines a failure printed, blank ones aside. */
const lines = (run: Run) => (run.stdout + run.stderr).split('\n').map(line => line.trim()).filter(Boolean)

describe('proxy help', () => {
  it.concurrent.each([['help'], ['--help'], ['-h']])('`proxy %s` prints the usage and exits 0', async flag => {
    const run = await proxy([flag])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/USAGE/)
    for (const command of ['start', 'dev', 'build']) expect(run.stdout).toContain(command)
    noStack(run)
  })

  it('`proxy help start` is `proxy start --help`', async () => {
    const run = await proxy(['help', 'start'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('--port')
    expect(run.stdout).toContain('--config')
  })
})

describe('bad arguments print one line, no stack, exit 1', () => {
  it.concurrent.each([
    [['start', '--port', 'abc'], '"abc"'],
    [['start', '--port', '99999'], '"99999"'],
    [['start', '--port', '-1'], '"-1"'],
    [['dev', '--port', '8o'], '"8o"'],
  ])('proxy %j', async (args, shown) => {
    const run = await proxy(args)
    expect(run.code).toBe(1)
    noStack(run)
    expect(lines(run)).toHaveLength(1)
    expect(lines(run)[0]).toContain('--port must be a whole number from 0 to 65535')
    expect(lines(run)[0]).toContain(shown)
  })

  it('an unknown preset names the presets there are, and builds nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-usage-'))
    try {
      const run = await proxy(['build', '--preset', 'no-such-preset', '--out', join(dir, 'out')])
      expect(run.code).toBe(1)
      noStack(run)
      expect(lines(run)).toEqual([expect.stringContaining(`unknown preset "no-such-preset"; presets: ${presetNames().join(', ')}`)])
      expect(presetNames()).toContain('coding-agents')
      expect(existsSync(join(dir, 'out'))).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('argument parsing', () => {
  it('parsePort takes 0..65535 and nothing else', () => {
    expect(parsePort(undefined)).toBeUndefined()
    expect(parsePort('0')).toBe(0)
    expect(parsePort('8317')).toBe(8317)
    expect(parsePort('65535')).toBe(65535)
    for (const bad of ['', 'abc', '65536', '-1', '1.5', ' 80', '0x50', '1e3', true]) expect(() => parsePort(bad), String(bad)).toThrow(UsageError)
  })

  it('helpArgs turns `help [command]` into `[command] --help`', () => {
    expect(helpArgs(['help'])).toEqual(['--help'])
    expect(helpArgs(['help', 'build'])).toEqual(['build', '--help'])
    expect(helpArgs(['start', '--port', '1'])).toEqual(['start', '--port', '1'])
  })
})
