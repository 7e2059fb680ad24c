import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'

/**
 * Issue 19.2: two real instances on one Redis, each with its own copy of the config file (no shared
 * disk). A change made on either, through its management API or its file on disk, reaches the other's
 * running config and file (comments kept); concurrent changes are settled by version.
 */
const base = `proxy-fleet-config-${process.pid}-${Date.now()}`
const secret = 'fleet-admin'
let root: string
const instances: Array<{ cli: CliProcess; url: string; file: string }> = []

const template = `# fleet template: this comment is kept
host: 127.0.0.1
api-keys: [client] # the first client
request-retry: 1
routing:
  strategy: round-robin
remote-management:
  secret-key: ${secret}
`

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'proxy-fleet-'))
  // The first instance starts alone (it hashes the plain secret and seeds the fleet's version), the second joins.
  for (const name of ['a', 'b']) {
    const dir = join(root, name)
    mkdirSync(dir)
    writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', storage: { driver: 'redis', url: 'redis://127.0.0.1:6379', base: '${base}' } }\n`)
    writeFileSync(join(dir, 'config.yaml'), template)
    const cli = runCli(['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], dir)
    instances.push({ cli, url: await cli.url, file: join(dir, 'config.yaml') })
  }
}, 30_000)
afterAll(async () => {
  await Promise.all(instances.map(i => i.cli.kill('SIGKILL')))
  rmSync(root, { recursive: true, force: true })
  const storage = await createProxyStorage({ driver: 'redis', base })
  for (const key of await storage.getKeys()) await storage.removeItem(key)
  await storage.dispose()
})

const admin = (url: string, method: string, path: string, body?: unknown) => fetch(`${url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
})
const config = async (url: string) => await (await admin(url, 'GET', '/config')).json() as Record<string, any>
const chat = (url: string, key: string) => fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
const fileOf = (i: number) => parse(readFileSync(instances[i]!.file, 'utf8'))

/** Milliseconds until `check` holds, polling every 10 ms. */
async function timeUntil(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<number> {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    if (await check()) return performance.now() - started
    await new Promise(resolve => setTimeout(resolve, 10))
  }
  throw new Error(`not within ${timeoutMs} ms`)
}

describe('config shared through Redis, a file per instance', () => {
  it('the joining instance took the fleet\'s version (the hashed secret), its own file kept aside', async () => {
    const [a, b] = [readFileSync(instances[0]!.file, 'utf8'), readFileSync(instances[1]!.file, 'utf8')]
    expect(a).toContain('$2')
    expect(b).toBe(a)
    expect(existsSync(`${instances[1]!.file}.before-fleet`)).toBe(true)
  })

  it('management changes on one reach the other\'s running config and file within a second', async () => {
    const [a, b] = instances
    const delays: number[] = []
    expect((await admin(a!.url, 'PUT', '/api-keys', ['client', 'added-on-a'])).status).toBe(200)
    delays.push(await timeUntil(async () => (await chat(b!.url, 'added-on-a')).status === 200))
    expect((await admin(a!.url, 'PUT', '/routing/strategy', { value: 'fill-first' })).status).toBe(200)
    delays.push(await timeUntil(async () => (await config(b!.url)).routing.strategy === 'fill-first'))
    expect((await admin(b!.url, 'PUT', '/request-retry', { value: 4 })).status).toBe(200)
    delays.push(await timeUntil(async () => (await config(a!.url))['request-retry'] === 4))
    console.log(`management change -> other instance applied: ${delays.map(ms => `${ms.toFixed(0)} ms`).join(', ')}`)
    for (const delay of delays) expect(delay).toBeLessThan(1000)
    expect(fileOf(1)['api-keys']).toEqual(['client', 'added-on-a'])
    expect(fileOf(0)['request-retry']).toBe(4)
    expect(readFileSync(instances[1]!.file, 'utf8')).toContain('# fleet template: this comment is kept')
  })

  it('an edit of one instance\'s file on disk reaches the other', async () => {
    const [a, b] = instances
    const text = readFileSync(b!.file, 'utf8').replace('request-retry: 4', 'request-retry: 6 # edited on b\'s disk')
    writeFileSync(`${b!.file}.new`, text)
    renameSync(`${b!.file}.new`, b!.file)
    const delay = await timeUntil(async () => (await config(a!.url))['request-retry'] === 6)
    console.log(`disk edit -> other instance applied: ${delay.toFixed(0)} ms`)
    await expect.poll(() => readFileSync(a!.file, 'utf8')).toContain('request-retry: 6 # edited on b\'s disk')
  })

  it('concurrent writes to different fields on both instances all survive, on both', async () => {
    const [a, b] = instances
    for (let round = 0; round < 5; round++) {
      const statuses = await Promise.all([
        admin(a!.url, 'PUT', '/max-retry-interval', { value: 10 + round }),
        admin(b!.url, 'PUT', '/error-logs-max-files', { value: 20 + round }),
        admin(a!.url, 'PUT', '/logs-max-total-size-mb', { value: 30 + round }),
        admin(b!.url, 'PUT', '/debug', { value: round % 2 === 0 }),
      ].map(p => p.then(r => r.status)))
      expect(statuses).toEqual([200, 200, 200, 200])
      const expected = { 'max-retry-interval': 10 + round, 'error-logs-max-files': 20 + round, 'logs-max-total-size-mb': 30 + round, debug: round % 2 === 0 }
      for (const url of [a!.url, b!.url]) await expect.poll(() => config(url), { timeout: 3000 }).toMatchObject(expected)
      for (const i of [0, 1]) await expect.poll(() => fileOf(i), { timeout: 3000 }).toMatchObject(expected)
    }
    expect(readFileSync(a!.file, 'utf8')).toBe(readFileSync(b!.file, 'utf8'))
  })

  it('settled, the instances leave the shared version alone (no back and forth)', async () => {
    const stamp = async () => {
      const storage = await createProxyStorage({ driver: 'redis', base })
      try { return (await storage.getItem<{ stamp: string }>('{fleet:config}:doc:config'))?.stamp } finally { await storage.dispose() }
    }
    const before = await stamp()
    await new Promise(resolve => setTimeout(resolve, 2500))
    expect(await stamp()).toBe(before)
  })
})
