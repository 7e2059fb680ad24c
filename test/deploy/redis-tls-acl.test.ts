import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { freePort } from '../helpers/redis-server.ts'

/**
 * Redis as operators run it: TLS only (a private CA), an ACL user with a password, the default user off.
 * The proxy reaches it from environment variables alone (PROXY_STORAGE_URL with `rediss://user:password@`,
 * PROXY_STORAGE_TLS_CA_FILE), no storage in any file.
 */
const has = (command: string, args: string[]) => { try { execFileSync(command, args, { stdio: 'ignore' }); return true } catch { return false } }
const available = has('redis-server', ['--version']) && has('openssl', ['version'])
let dir: string
let port: number
let redis: ChildProcess
let cli: CliProcess
let url: string

beforeAll(async () => {
  if (!available) return
  dir = mkdtempSync(join(tmpdir(), 'proxy-redis-tls-'))
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'tls.key'), '-out', join(dir, 'tls.crt'), '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' })
  writeFileSync(join(dir, 'users.acl'), 'user proxy on >proxy-pass ~* &* +@all\nuser default off\n')
  port = await freePort()
  redis = spawn('redis-server', ['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '--tls-cert-file', join(dir, 'tls.crt'), '--tls-key-file', join(dir, 'tls.key'),
    '--tls-ca-cert-file', join(dir, 'tls.crt'), '--tls-auth-clients', 'no', '--aclfile', join(dir, 'users.acl'), '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    let out = ''
    redis.stdout!.on('data', (chunk: Buffer) => { out += chunk; if (out.includes('Ready to accept connections')) resolve() })
    redis.once('exit', code => reject(new Error(`redis-server exited (${code}): ${out}`)))
  })
  writeFileSync(join(dir, 'config.yaml'), 'host: 127.0.0.1\napi-keys: [k]\n')
  cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir, {
    PROXY_STORAGE_URL: `rediss://proxy:proxy-pass@127.0.0.1:${port}`, PROXY_STORAGE_PREFIX: 'tls-acl', PROXY_STORAGE_TLS_CA_FILE: join(dir, 'tls.crt'),
  })
  url = await cli.url
}, 60_000)

afterAll(async () => {
  await cli?.kill('SIGKILL')
  redis?.kill('SIGKILL')
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(!available)('Redis over TLS with an ACL user, from the environment', () => {
  it('the instance is ready on the shared store and writes its state there', async () => {
    await expect.poll(async () => (await (await fetch(`${url}/readyz`)).json() as { status: string }).status, { timeout: 10_000 }).toBe('ready')
    const keys = execFileSync('redis-cli', ['--no-auth-warning', '--tls', '--cacert', join(dir, 'tls.crt'), '-p', String(port), '--user', 'proxy', '--pass', 'proxy-pass', '--scan', '--pattern', 'tls-acl:*'], { encoding: 'utf8' })
    expect(keys).toContain('tls-acl:{fleet:config}:stamps')
    // The password never reaches the log.
    expect(cli.output()).not.toContain('proxy-pass')
  })
})
