import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import bcrypt from 'bcryptjs'
import { startManagedProxy, managementSecret, type ManagedProxy } from './helpers.ts'

/**
 * The panel adds a key or a provider by sending the whole list back as GET gave it, plus the new entry
 * (PUT), and a key to a provider by sending its `api-key-entries` back (PATCH). GET shows the values the
 * proxy runs with: `${env:…}` references resolved, defaults filled in. Written as they came, they put
 * every referenced secret into the YAML in plain text, dropped the comments of the entries already
 * there and added each default as a line. Unchanged parts now keep their lines. A named client key's
 * PATCH rewrote its whole entry the same way (comments gone, flow lists exploded, keys reordered).
 */
const env = { WK_UPSTREAM: 'sk-upstream-from-the-vault-1234', WK_CLIENT: 'client-key-from-the-vault-5678', WK_PROXY: 'http://127.0.0.1:3128' }
const yaml = `host: 127.0.0.1
auth-dir: /nonexistent-auth-dir
remote-management: { secret-key: '${bcrypt.hashSync(managementSecret, 4)}' }
proxy-url: \${env:WK_PROXY}
api-keys:
  - \${env:WK_CLIENT} # from the vault
  - plain-client
gamma-api-key:
  # the team account
  - api-key: \${env:WK_UPSTREAM}
    base-url: http://127.0.0.1:9/v1 # local mock
compat-provider:
  - name: pool # shared pool
    base-url: http://127.0.0.1:9/v1
    api-key-entries:
      - api-key: \${env:WK_UPSTREAM} # vault key
    models: [{ name: m1 }]
client-keys:
  - name: alice # Alice
    key: sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
    models: ['*-mini', 'claude-*'] # cheap ones
    rpm: 10 # per minute
`

let managed: ManagedProxy
beforeAll(() => { Object.assign(process.env, env) })
afterAll(() => { for (const name of Object.keys(env)) delete process.env[name] })
beforeEach(async () => { managed = await startManagedProxy(yaml) })
afterEach(() => managed.close())

const call = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))

/** Lines of the file now that were not in it before (the secret-key line aside), and lines gone. */
function lineChanges(before: string, after: string) {
  const a = before.split('\n').filter(line => !line.includes('secret-key'))
  const b = after.split('\n').filter(line => !line.includes('secret-key'))
  return { added: b.filter(line => !a.includes(line)), removed: a.filter(line => !b.includes(line)) }
}

describe('list writes keep what they do not change', () => {
  it('PUT of a provider list as GET gave it, plus one: only the new entry\'s lines are added', async () => {
    const before = managed.text()
    const list = (await call('GET', '/gamma-api-key')).body['gamma-api-key']
    expect(list[0]['api-key']).toBe(env.WK_UPSTREAM)
    expect(await call('PUT', '/gamma-api-key', [...list, { 'api-key': 'sk-second' }])).toEqual({ status: 200, body: { status: 'ok' } })
    expect(lineChanges(before, managed.text())).toEqual({ added: ['  - api-key: sk-second'], removed: [] })
    expect(managed.text()).not.toContain(env.WK_UPSTREAM)
    expect((managed.proxy.proxy.kernel.config as any)['gamma-api-key'].map((entry: { 'api-key': string }) => entry['api-key'])).toEqual([env.WK_UPSTREAM, 'sk-second'])
  })

  it('PUT /api-keys as GET gave it, plus one: the reference and its comment stay', async () => {
    const before = managed.text()
    const keys = (await call('GET', '/api-keys')).body['api-keys']
    expect((await call('PUT', '/api-keys', [...keys, 'third'])).status).toBe(200)
    expect(lineChanges(before, managed.text())).toEqual({ added: ['  - third'], removed: [] })
    expect(managed.proxy.proxy.kernel.config['api-keys']).toEqual([env.WK_CLIENT, 'plain-client', 'third'])
  })

  it('PUT with one entry changed and one removed: the changed entry keeps its other lines', async () => {
    const list = (await call('GET', '/compat-provider')).body['compat-provider']
    const second = { name: 'other', 'base-url': 'http://127.0.0.1:9/v1', 'api-key-entries': [{ 'api-key': 'k' }], models: [{ name: 'm2' }] }
    expect((await call('PUT', '/compat-provider', [...list, second])).status).toBe(200)
    const before = managed.text()
    const now = (await call('GET', '/compat-provider')).body['compat-provider']
    expect((await call('PUT', '/compat-provider', [{ ...now[0], prefix: 'team' }])).status).toBe(200)
    const { added } = lineChanges(before, managed.text())
    expect(added).toEqual(['    prefix: team'])
    expect(managed.text()).toContain(`- api-key: \${env:WK_UPSTREAM} # vault key`)
    expect(managed.text()).not.toContain('other')
  })

  it('PATCH of api-key-entries with one key added: the others keep their references', async () => {
    const before = managed.text()
    const [pool] = (await call('GET', '/compat-provider')).body['compat-provider']
    const entries = [...pool['api-key-entries'], { 'api-key': 'sk-added' }]
    expect((await call('PATCH', '/compat-provider', { name: 'pool', value: { 'api-key-entries': entries } })).status).toBe(200)
    expect(lineChanges(before, managed.text())).toEqual({ added: ['      - api-key: sk-added'], removed: [] })
    expect(managed.proxy.proxy.kernel.credentials.filter(c => c.family === 'compat').map(c => c.apiKey)).toEqual([env.WK_UPSTREAM, 'sk-added'])
  })

  it('PATCH of an entry with every field as GET gave it, one changed: one line', async () => {
    const before = managed.text()
    const [entry] = (await call('GET', '/gamma-api-key')).body['gamma-api-key']
    expect((await call('PATCH', '/gamma-api-key', { index: 0, value: { ...entry, priority: 2 } })).status).toBe(200)
    expect(lineChanges(before, managed.text())).toEqual({ added: ['    priority: 2'], removed: [] })
  })

  it('a single field sent back as GET gave it keeps its reference', async () => {
    const before = managed.text()
    const { body } = await call('GET', '/proxy-url')
    expect(body['proxy-url']).toBe(env.WK_PROXY)
    expect((await call('PUT', '/proxy-url', { value: body['proxy-url'] })).status).toBe(200)
    expect(managed.text()).toBe(before)
  })

  it('a named client key PATCHed: one line changes, its comment stays', async () => {
    const before = managed.text()
    expect((await call('PATCH', '/client-keys/alice', { rpm: 20 })).status).toBe(200)
    expect(lineChanges(before, managed.text())).toEqual({ added: ['    rpm: 20 # per minute'], removed: ['    rpm: 10 # per minute'] })
  })
})

describe('lines longer than the YAML library\'s 80 columns', () => {
  // Written on one line each: the library folded them over several lines on write, so the file's lines no
  // longer paired with its own and every line was written anew (flow lists exploded, strings folded).
  const long = `host: 127.0.0.1
auth-dir: /nonexistent-auth-dir
remote-management: { secret-key: '${bcrypt.hashSync(managementSecret, 4)}' }
debug: false
api-keys: [first-client-key, second-client-key, third-client-key, fourth-client-key]
compat-provider: [{ name: pool, base-url: 'http://127.0.0.1:9/v1', api-key-entries: [{ api-key: up-1 }], models: [{ name: m1 }] }]
client-keys:
  - { name: bob, key: bob-plain-key-to-be-hashed, models: ['*-mini'], owner: "Bob from the platform team, who owns the CI runners" }
`

  it('a start-up hash and a management write change their own lines only', async () => {
    await managed.close()
    managed = await startManagedProxy(long)
    // The plain client key became its hash at start-up: that line alone (written as the library spaces it).
    const { added, removed } = lineChanges(long, managed.text())
    const hash = `sha256:${createHash('sha256').update('bob-plain-key-to-be-hashed').digest('hex')}`
    expect(removed).toEqual([long.split('\n')[7]])
    expect(added.map(line => line.replace(/\s+/g, ''))).toEqual([long.split('\n')[7]!.replace('bob-plain-key-to-be-hashed', hash).replace(/\s+/g, '')])
    const before = managed.text()
    expect((await call('PUT', '/debug', { value: true })).status).toBe(200)
    expect(managed.text()).toBe(before.replace('debug: false', 'debug: true'))
  })
})
