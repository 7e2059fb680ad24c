import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import bcrypt from 'bcryptjs'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'

/** Two real proxy processes on one Redis, sharing no memory. */
let upstream: MockUpstream
let quota = false
let dir: string
let a: CliProcess
let b: CliProcess
let urlA: string
let urlB: string
const base = `proxy-two-${process.pid}-${Date.now()}`

beforeAll(async () => {
  upstream = await startMockUpstream(request => quota
    ? new Response(JSON.stringify({ error: { message: 'quota exceeded' } }), { status: 429, headers: { 'retry-after': '60' } })
    : openaiMock(request))
  dir = mkdtempSync(join(tmpdir(), 'proxy-two-'))
  writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', storage: { driver: 'redis', url: 'redis://127.0.0.1:6379', base: '${base}' } }\n`)
  writeFileSync(join(dir, 'config.yaml'), [
    'host: 127.0.0.1',
    'api-keys: [client]',
    'usage-statistics-enabled: true',
    'max-retry-interval: 0',
    'quota-exceeded: { switch-project: true, switch-preview-model: false }',
    `remote-management: { secret-key: '${bcrypt.hashSync('admin', 4)}' }`,
    'compat-provider:',
    `  - { name: shared, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: only }], models: [{ name: mock-gpt, alias: m }] }`,
    '',
  ].join('\n'))
  const args = ['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0']
  a = runCli(args, dir)
  b = runCli(args, dir)
  ;[urlA, urlB] = await Promise.all([a.url, b.url])
}, 30_000)
afterAll(async () => {
  await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')])
  await upstream.close()
  rmSync(dir, { recursive: true, force: true })
  const storage = await createProxyStorage({ driver: 'redis', base })
  for (const key of await storage.getKeys()) await storage.removeItem(key)
  await storage.dispose()
})

const chat = (url: string, key = 'client') => fetch(`${url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
})
const admin = (url: string, path: string, init: RequestInit = {}) => fetch(`${url}/v0/management${path}`, { ...init, headers: { authorization: 'Bearer admin', 'content-type': 'application/json' } })

describe('two instances on one Redis', () => {
  it('usage recorded by one is reported by the other within 2 s', async () => {
    expect((await chat(urlA)).status).toBe(200)
    await expect.poll(async () => (await (await admin(urlB, '/usage')).json()).usage.requests, { timeout: 2000, interval: 200 }).toBeGreaterThanOrEqual(1)
  })

  it('a cooldown set by one is honoured by the other within 2 s', async () => {
    quota = true
    expect((await chat(urlA)).status).toBe(429)
    const calls = upstream.requests.length
    await expect.poll(async () => (await (await chat(urlB)).json()).error?.code, { timeout: 2000, interval: 200 }).toBe('model_cooldown')
    expect(upstream.requests.length).toBeLessThanOrEqual(calls + 1)
    quota = false
    expect((await admin(urlB, '/credentials/reset-cooldown', { method: 'POST', body: JSON.stringify({ id: 'compat:shared:0.0' }) })).status).toBe(200)
    await expect.poll(async () => (await chat(urlA)).status, { timeout: 2000, interval: 200 }).toBe(200)
  })

  it('a management change made through one is live on the other within 2 s', async () => {
    expect((await admin(urlB, '/api-keys', { method: 'PUT', body: JSON.stringify(['client', 'added-on-b']) })).status).toBe(200)
    await expect.poll(async () => (await chat(urlA, 'added-on-b')).status, { timeout: 2000, interval: 200 }).toBe(200)
  })
})
