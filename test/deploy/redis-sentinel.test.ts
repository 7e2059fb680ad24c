import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { freePort, startOwnRedis, type OwnRedis } from '../helpers/redis-server.ts'

/** Redis behind Sentinel: the proxy asks a sentinel (PROXY_STORAGE_SENTINELS) where the master is. */
const available = (() => { try { execFileSync('redis-server', ['--version'], { stdio: 'ignore' }); return true } catch { return false } })()
let dir: string
let master: OwnRedis
let sentinel: ChildProcess
let sentinelPort: number
let cli: CliProcess
let url: string

beforeAll(async () => {
  if (!available) return
  dir = mkdtempSync(join(tmpdir(), 'proxy-sentinel-'))
  master = await startOwnRedis()
  sentinelPort = await freePort()
  writeFileSync(join(dir, 'sentinel.conf'), `port ${sentinelPort}\nbind 127.0.0.1\nsentinel monitor proxymaster 127.0.0.1 ${master.port} 1\ndir ${dir}\n`)
  sentinel = spawn('redis-server', [join(dir, 'sentinel.conf'), '--sentinel'], { stdio: ['ignore', 'pipe', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    let out = ''
    sentinel.stdout!.on('data', (chunk: Buffer) => { out += chunk; if (out.includes('+monitor master')) resolve() })
    sentinel.once('exit', code => reject(new Error(`sentinel exited (${code}): ${out}`)))
  })
  writeFileSync(join(dir, 'config.yaml'), 'host: 127.0.0.1\napi-keys: [k]\nstorage: { prefix: sentinel-test, sentinel-name: proxymaster }\n')
  cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir, { PROXY_STORAGE_SENTINELS: `127.0.0.1:${sentinelPort}` })
  url = await cli.url
}, 60_000)

afterAll(async () => {
  await cli?.kill('SIGKILL')
  sentinel?.kill('SIGKILL')
  await master?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(!available)('Redis behind Sentinel', () => {
  it('the instance finds the master through the sentinel and shares its state there', async () => {
    await expect.poll(async () => (await (await fetch(`${url}/readyz`)).json() as { status: string }).status, { timeout: 10_000 }).toBe('ready')
    const keys = execFileSync('redis-cli', ['-p', String(master.port), '--scan', '--pattern', 'sentinel-test:*'], { encoding: 'utf8' })
    expect(keys).toContain('sentinel-test:{fleet:config}:stamps')
  })
})
