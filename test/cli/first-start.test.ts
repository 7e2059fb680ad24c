import { afterAll, describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { binPath, runCli } from '../helpers/spawn-cli.ts'
import { startMockOpenAI } from '../helpers/mock-openai-server.ts'

interface Run { code: number | null; out: string }

/** `proxy <args>` to its exit, stdout and stderr together; `env` replaces the colour switches the helpers set. */
function proxy(args: string[], cwd: string, env: Record<string, string | undefined> = { NO_COLOR: '1', CI: '1' }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], { cwd, env: { ...process.env, NO_COLOR: undefined, CI: undefined, FORCE_COLOR: undefined, ...env } })
    let out = ''
    child.stdout.on('data', chunk => { out += chunk })
    child.stderr.on('data', chunk => { out += chunk })
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`proxy ${args.join(' ')} did not exit:\n${out}`)) }, 20_000)
    child.on('exit', code => { clearTimeout(timer); resolve({ code, out }) })
  })
}

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-first-'))
  dirs.push(dir)
  return dir
}
afterAll(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }) })

describe('a guided first start', () => {
  it('`proxy init` writes a loopback config with generated keys, then `proxy start` there serves it and logs each request on stdout', async () => {
    const dir = tempDir()
    const init = await proxy(['init'], dir)
    expect(init.code).toBe(0)
    const clientKey = /client key:\s+(\S+)/.exec(init.out)?.[1]
    const managementKey = /management key:\s+(\S+)/.exec(init.out)?.[1]
    expect(clientKey).toMatch(/^sk-[\w-]{30,}$/)
    expect(managementKey).toMatch(/^mgmt-[\w-]{30,}$/)
    expect(init.out).toMatch(/127\.0\.0\.1 only.*set `host`/s)
    const yaml = readFileSync(join(dir, 'config.yaml'), 'utf8')
    expect(yaml).toContain('host: 127.0.0.1')
    expect(yaml).toContain(clientKey)
    expect(statSync(join(dir, 'config.yaml')).mode & 0o077).toBe(0)
    // Never over a file that is there.
    const again = await proxy(['init'], dir)
    expect(again.code).toBe(1)
    expect(again.out).toContain('--force')
    expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).toBe(yaml)

    const upstream = await startMockOpenAI()
    writeFileSync(join(dir, 'config.yaml'), `${yaml}compat-provider:\n  - { name: mock, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: upstream-secret-key-123456 }], models: [{ name: mock-gpt, alias: m }] }\n`)
    const cli = runCli(['start', '--port', '0'], dir)
    try {
      const url = await cli.url
      expect(url).toContain('127.0.0.1')
      const answer = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(answer.status).toBe(200)
      const requestId = answer.headers.get('x-request-id')
      // stdout is a pipe: JSON lines, one per request.
      await expect.poll(() => cli.output(), { timeout: 5000 }).toContain('"msg":"request"')
      const line = JSON.parse(cli.output().split('\n').find(text => text.includes('"msg":"request"'))!)
      expect(line).toMatchObject({ level: 'info', method: 'POST', path: '/v1/chat/completions', status: 200, model: 'm', upstream_model: 'mock-gpt', family: 'compat', credential: expect.stringContaining('mock') })
      if (requestId) expect(line.request_id).toBe(requestId)
      expect(typeof line.latency_ms).toBe('number')
      expect(line.input_tokens).toBeGreaterThan(0)
      expect(line.key).not.toBe(clientKey)
      expect(cli.output()).not.toContain(clientKey)
      expect(cli.output()).not.toContain('upstream-secret-key-123456')
      expect(cli.output()).not.toContain(managementKey)
      // The management key reaches the management API (hashed at start).
      expect((await fetch(`${url}/v0/management/config`, { headers: { authorization: `Bearer ${managementKey}` } })).status).toBe(200)
    } finally {
      await cli.kill('SIGKILL')
      await upstream.close()
    }
  })

  it('`proxy start` with no config says to run `proxy init` and exits 1', async () => {
    const run = await proxy(['start', '--port', '0'], tempDir())
    expect(run.code).toBe(1)
    expect(run.out).toContain('no config file: run `npx proxy init`')
    expect(run.out).not.toMatch(/\n\s+at /)
  })

  it('`proxy start` with the example\'s placeholder key says to replace it and exits 1', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'config.yaml'), readFileSync(new URL('../../config.example.yaml', import.meta.url), 'utf8'))
    const run = await proxy(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir)
    expect(run.code).toBe(1)
    expect(run.out).toMatch(/api-keys\[0\] is the example's placeholder key "change-me": replace it/)
  })

  it.each([
    [['start', '--confg', 'x.yaml'], 'unknown option --confg (did you mean --config?)'],
    [['start', '--port=0', '--verbose'], 'unknown option --verbose'],
    [['start', 'config.yaml'], 'unexpected argument "config.yaml"'],
    [['init', '--frce'], 'unknown option --frce (did you mean --force?)'],
    [['build', '--preset', 'x', '--out', 'y', '--zip'], 'unknown option --zip'],
  ])('unknown flags are errors: proxy %j', async (args, message) => {
    const run = await proxy(args, tempDir())
    expect(run.code).toBe(1)
    expect(run.out).toContain(message)
    expect(run.out).not.toMatch(/\n\s+at /)
  })

  it('no colour codes in piped output, even without NO_COLOR', async () => {
    const dir = tempDir()
    for (const args of [['help', 'start'], ['start', '--confg', 'x']]) {
      const run = await proxy(args, dir, {})
      expect(run.out.length).toBeGreaterThan(10)
      expect(run.out).not.toContain('\u001B[')
    }
  })
})
