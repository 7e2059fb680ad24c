import { afterEach, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { until, stdioServerPath } from './servers.ts'

/** A local server's process never outlives the gateway's hold on it, even one that never finishes its handshake. */
let proxy: TestProxy | undefined

afterEach(async () => {
  await proxy?.close()
  proxy = undefined
})

// Never answers `initialize` and ignores the end of its stdin: only a signal stops it.
const silent = { name: 'silent', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function startSilent(): Promise<{ proxy: TestProxy; pid: number }> {
  const started = await startTestProxy({ 'api-keys': ['process-key'], 'mcp-servers': [silent] })
  const server = () => started.proxy.kernel.services.mcpGateway!.servers.get('silent')!
  await until(() => server().pid !== undefined)
  expect(server().state).toBe('starting')
  return { proxy: started, pid: server().pid! }
}

describe('local server processes', () => {
  it('one still starting is stopped when the proxy stops, not left running', async () => {
    const started = await startSilent()
    await started.proxy.close()
    expect(alive(started.pid)).toBe(false)
  }, 20_000)

  it('one still starting is stopped by a restart: one process runs, not two', async () => {
    const started = await startSilent()
    proxy = started.proxy
    const server = started.proxy.proxy.kernel.services.mcpGateway!.servers.get('silent')!
    server.restart()
    await until(() => server.pid !== undefined && server.pid !== started.pid)
    const second = server.pid!
    await until(() => !alive(started.pid), 10_000)
    expect(alive(second)).toBe(true)
    expect(server.state).toBe('starting')
  }, 20_000)

  it('one started through a wrapper (a shell that does not exec it) is stopped with the wrapper', async () => {
    const server = stdioServerPath
    // The shell stays the command's process; the server, its child, outlives the end of its stdin.
    const wrapped = { name: 'wrapped', command: 'sh', args: ['-c', `"${process.execPath}" "${server}"; exit $?`], env: { KEEP_RUNNING: '1' } }
    const started = await startTestProxy({ 'api-keys': ['process-key'], 'mcp-servers': [wrapped] })
    const upstream = started.proxy.kernel.services.mcpGateway!.servers.get('wrapped')!
    await until(() => upstream.state === 'up')
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(upstream.pid)]).toString().trim().split(/\s+/).map(Number)
    expect(children).toHaveLength(1)
    await started.close()
    await until(() => !alive(children[0]!), 5000)
  }, 20_000)

  it('one that keeps failing shows the stderr of its last run in its error, not of every run before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-runs-'))
    // Counts its runs in a file, says which one it is, and exits.
    const script = `const fs = require('fs'); const file = ${JSON.stringify(join(dir, 'runs'))}; const run = (fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8')) : 0) + 1; fs.writeFileSync(file, String(run)); console.error('run ' + run + ' failed'); process.exit(3)`
    const started = await startTestProxy({ 'api-keys': ['process-key'], 'mcp-servers': [{ name: 'failing', command: process.execPath, args: ['-e', script] }] })
    proxy = started
    const server = started.proxy.kernel.services.mcpGateway!.servers.get('failing')!
    await until(() => server.failures >= 2 && server.state === 'down', 10_000)
    expect(server.error).toMatch(new RegExp(`stderr: run ${server.failures} failed\\)$`))
    rmSync(dir, { recursive: true, force: true })
  }, 20_000)
})
