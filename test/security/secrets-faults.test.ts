import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { createProxy, type Proxy } from '../../core/app.ts'
import { listen, type RunningServer } from '../../core/runtime/server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startConnectProxy, type ForwardProxy } from '../helpers/forward-proxies.ts'
import { runCli } from '../helpers/spawn-cli.ts'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { freePort } from '../helpers/redis-server.ts'
import { capturingLogger, fileSurfaces, plant, recordingFetch, scan, type Seen } from './leak-scan.ts'

/**
 * Secrets where a request fails before any answer: an upstream that refuses the connection, a host that
 * does not resolve, a TLS handshake with a plain HTTP server, an upstream that never answers, an outbound
 * proxy with credentials that refuses them or is down; then bad configs holding secrets (management
 * writes, the CLI at start-up, a Redis URL with a password). No secret may show in an answer, a log line,
 * a log file or the CLI's output.
 */
const secrets = {
  clientKey: plant('sk-client'),
  managementSecret: plant('mgmt'),
  refusedKey: plant('up-refused'),
  dnsKey: plant('up-dns'),
  tlsKey: plant('up-tls'),
  slowKey: plant('up-slow'),
  proxiedKey: plant('up-proxied'),
  proxyPass: plant('proxy-pass'),
  downProxyPass: plant('down-proxy-pass'),
  redisPass: plant('redis-pass'),
}
/** Held in the YAML: the config reads return them by design (docs/security.md, Secrets). */
const configHeld = new Set(['clientKey', 'refusedKey', 'dnsKey', 'tlsKey', 'slowKey', 'proxiedKey', 'proxyPass', 'downProxyPass'])
const configReads = /\/v0\/management\/(config|config\.yaml|api-keys|compat-provider|proxy-url|(alpha|beta|gamma|delta)-api-key)( |$)/

let closedPort: number
let slow: MockUpstream
let plain: MockUpstream
let forward: ForwardProxy
let proxy: Proxy
let server: RunningServer
let root: string
const seen: Seen[] = []
const logged: string[] = []
let send: ReturnType<typeof recordingFetch>
const admin = (method: string, path: string, body?: unknown, type = 'application/json') =>
  send(`/v0/management${path}`, { method, headers: { authorization: `Bearer ${secrets.managementSecret}`, 'content-type': type }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) })

beforeAll(async () => {
  // A port nobody listens on.
  const probe = createNetServer()
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve))
  closedPort = (probe.address() as AddressInfo).port
  await new Promise(resolve => probe.close(resolve))
  slow = await startMockUpstream(() => new Promise(() => {}))
  plain = await startMockUpstream()
  // Demands other credentials than the ones configured: every tunnel is refused with a 407.
  forward = await startConnectProxy({ user: 'someone', pass: 'other' })
  root = mkdtempSync(join(tmpdir(), 'proxy-leak-faults-'))
  const proxyUrl = `http://user:${encodeURIComponent(secrets.proxyPass)}@${forward.url.split('@')[1]}`
  const entry = (name: string, base: string, key: string, extra: Record<string, unknown> = {}) => ({ name, 'base-url': base, 'api-key-entries': [{ 'api-key': key, ...extra }], models: [{ name: 'up', alias: name }] })
  const config = {
    host: '127.0.0.1',
    'api-keys': [secrets.clientKey],
    'remote-management': { 'secret-key': secrets.managementSecret },
    'logging-to-file': true,
    'request-log': true,
    'logs-dir': join(root, 'logs'),
    'request-retry': 0,
    timeouts: { 'first-byte-seconds': 1, 'connect-seconds': 2 },
    'compat-provider': [
      entry('refused', `http://127.0.0.1:${closedPort}/v1`, secrets.refusedKey),
      entry('dns', 'http://no-such-host.invalid/v1', secrets.dnsKey),
      entry('tls', `${plain.url.replace('http:', 'https:')}/v1`, secrets.tlsKey),
      entry('slow', `${slow.url}/v1`, secrets.slowKey),
      entry('proxied', `${plain.url}/v1`, secrets.proxiedKey, { 'proxy-url': proxyUrl }),
      entry('down-proxy', `${plain.url}/v1`, secrets.proxiedKey, { 'proxy-url': `http://user:${encodeURIComponent(secrets.downProxyPass)}@127.0.0.1:${closedPort}` }),
    ],
  }
  const configPath = join(root, 'config.yaml')
  writeFileSync(configPath, stringify(config))
  proxy = await createProxy({ config: validateConfig(config), logger: capturingLogger(logged) as never, configPath })
  server = await listen(() => proxy, proxy.kernel.config, { port: 0, host: '127.0.0.1' })
  send = recordingFetch(server.url, seen)
}, 30_000)
afterAll(async () => {
  await server?.close()
  await proxy?.close()
  await Promise.all([slow?.close(), plain?.close(), forward?.close()])
  rmSync(root, { recursive: true, force: true })
})

describe('no secret leaks when a request or a config fails', () => {
  it('drives failing connections, timeouts, refusing proxies and bad config writes', async () => {
    const statuses: Record<string, number> = {}
    const credentials = JSON.parse((await admin('GET', '/credentials')).body).credentials as Array<{ id: string; provider: string }>
    for (const model of ['refused', 'dns', 'tls', 'slow', 'proxied', 'down-proxy']) {
      for (const stream of [false, true]) {
        const answer = await send('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${secrets.clientKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }) })
        statuses[`${model} ${stream}`] = answer.status
      }
      // The silent upstream too: api-call gives up after first-byte-seconds (1 s here) with a 504.
      await admin('POST', '/api-call', { credential: credentials.find(c => c.provider === model)?.id, method: 'GET', path: '/models' })
    }
    // Every failure is a failure, not a hang or a 200.
    expect(Object.entries(statuses).filter(([, status]) => status < 400)).toEqual([])

    // Bad config writes holding secrets: each refused, none may quote them back.
    const bad = (extra: Record<string, unknown>) => stringify({ 'api-keys': [secrets.clientKey], 'remote-management': { 'secret-key': secrets.managementSecret }, ...extra })
    for (const body of [
      bad({ 'proxy-url': `ftp://user:${secrets.proxyPass}@host:1` }),
      bad({ 'compat-provider': [{ name: 'x', 'base-url': `https://user:${secrets.proxyPass}@host/v1`, 'api-key-entries': [{ 'api-key': secrets.refusedKey }] }] }),
      bad({ 'compat-provider': [{ name: 'x', 'base-url': 'https://host/v1', 'api-key-entries': [{ 'api-key': secrets.refusedKey, priority: 'high' }] }] }),
      bad({ 'api-keys': secrets.clientKey, 'request-retry': 'x' }),
      `api-keys: [${secrets.clientKey}\nremote-management: {secret-key: ${secrets.managementSecret}`,
    ]) expect((await admin('PUT', '/config.yaml', body, 'application/yaml')).status).toBe(400)
    for (const value of [`ftp://user:${secrets.proxyPass}@host:1`, `http://user:${secrets.proxyPass}@`, `socks5://user:${secrets.proxyPass}@host`]) await admin('PUT', '/proxy-url', { value })
    await admin('PUT', '/compat-provider', [{ name: 'x', 'base-url': `https://user:${secrets.proxyPass}@host/v1`, 'api-key-entries': [{ 'api-key': secrets.refusedKey }] }])
    await admin('PATCH', '/compat-provider', { name: 'refused', value: { 'base-url': `gopher://${secrets.refusedKey}@h` } })
    await admin('POST', '/api-call', { url: `https://user:${secrets.proxyPass}@api.openai.com/v1/models` })
    await admin('POST', '/api-call', { url: `https://api.openai.com/v1/models?key=${secrets.refusedKey}`, credential: credentials[0]?.id })
    for (const path of ['/logs', '/credentials', '/routing', '/status', '/request-error-logs']) await admin('GET', path)
  }, 60_000)

  it('finds no secret in any answer (configured ones only in the config reads)', () => {
    expect(scan(seen, secrets, (where, name) => configHeld.has(name) && configReads.test(where))).toEqual([])
  })

  it('finds no secret in a log file or a log line', async () => {
    await slow.close()
    await server.close()
    await proxy.close()
    expect(scan([...fileSurfaces(join(root, 'logs')), { where: 'logger', text: logged.join('\n') }], secrets)).toEqual([])
  })

  it('the CLI says what is wrong with a config without quoting its secrets', async () => {
    const outputs: Seen[] = []
    const start = async (name: string, config: string, env: Record<string, string> = {}, visit?: (url: string) => Promise<void>) => {
      const dir = mkdtempSync(join(tmpdir(), 'proxy-leak-cli-'))
      try {
        writeFileSync(join(dir, 'config.yaml'), config)
        const cli = runCli(['start', '--config', join(dir, 'config.yaml'), '--port', '0', '--project', join(dir, 'none.mjs')], dir, env)
        const timer = setTimeout(() => void cli.kill(), 15_000)
        // A little while up: a lazy connection (Redis) fails after listening.
        await cli.url.then(async (url) => {
          await visit?.(url.replace('localhost', '127.0.0.1')).catch(() => {})
          await new Promise(resolve => setTimeout(resolve, 1500))
          await cli.kill()
        }, () => {})
        await cli.exit
        clearTimeout(timer)
        outputs.push({ where: `cli ${name}`, text: cli.output() })
      } finally { rmSync(dir, { recursive: true, force: true }) }
    }
    const keys = `api-keys: [${secrets.clientKey}]\nremote-management: {secret-key: ${secrets.managementSecret}}\n`
    await start('bad proxy-url', `${keys}proxy-url: ftp://user:${secrets.proxyPass}@host:1\n`)
    await start('base-url with credentials', `${keys}compat-provider: [{name: x, base-url: "https://u:${secrets.proxyPass}@h/v1", api-key-entries: [{api-key: ${secrets.refusedKey}}]}]\n`)
    await start('wrong type next to a key', `${keys}compat-provider: [{name: x, base-url: "https://h/v1", api-key-entries: [{api-key: ${secrets.refusedKey}, priority: high}]}]\n`)
    await start('broken yaml', `api-keys: [${secrets.clientKey}\nremote-management: {secret-key: ${secrets.managementSecret}\n`)
    // Requests that need the storage (usage, credential state), answered or not.
    const visit = async (url: string) => {
      for (const path of ['/v0/management/usage', '/v0/management/credentials', '/v0/management/config']) outputs.push({ where: `cli GET ${path}`, text: await (await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${secrets.managementSecret}` }, signal: AbortSignal.timeout(5000) })).text() })
    }
    await start('redis down', keys, { PROXY_STORAGE_URL: `redis://user:${encodeURIComponent(secrets.redisPass)}@127.0.0.1:${closedPort}` }, visit)
    await start('redis in yaml', `${keys}storage: {url: "redis://:${encodeURIComponent(secrets.redisPass)}@127.0.0.1:${closedPort}"}\n`)
    // A Redis that wants another password than the one in the URL.
    if (existsSync('/usr/bin/redis-server') || process.env.PATH?.split(':').some(dir => existsSync(join(dir, 'redis-server')))) {
      const port = await freePort()
      const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', 'another-password'], { stdio: 'ignore' })
      try {
        await new Promise(resolve => setTimeout(resolve, 300))
        await start('redis wrong password', keys, { PROXY_STORAGE_URL: `redis://default:${encodeURIComponent(secrets.redisPass)}@127.0.0.1:${port}` }, visit)
      } finally { redis.kill('SIGKILL') }
    }
    expect(outputs.every(output => output.text.length > 0)).toBe(true)
    expect(scan(outputs, secrets, (where, name) => configHeld.has(name) && where === 'cli GET /v0/management/config')).toEqual([])
  }, 120_000)
})
