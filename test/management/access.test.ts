import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startManagedProxy, managementSecret, baseYaml, type ManagedProxy } from './helpers.ts'
import { BanList, idlePurgeMs } from '../../plugins/management/ban-list.ts'

let managed: ManagedProxy
beforeAll(async () => { managed = await startManagedProxy(baseYaml.replace('allow-remote: false', 'allow-remote: true')) })
afterAll(() => managed.close())

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${managed.proxy.url}/v0/management${path}`, { headers })

describe('management access (spec Authentication 3)', () => {
  it('the plain secret is hashed at start-up and written back; GET /config shows the hash', async () => {
    expect(managed.yaml()['remote-management']['secret-key']).toMatch(/^\$2[aby]\$10\$/)
    expect(managed.text()).toContain('# Operator notes: keep this comment')
    const config = await (await get('/config', { authorization: `Bearer ${managementSecret}` })).json()
    expect(config['remote-management']['secret-key']).toMatch(/^\$2[aby]\$/)
  })

  it.each([
    ['Authorization: Bearer', { authorization: `Bearer ${managementSecret}` }],
    ['X-Management-Key', { 'x-management-key': managementSecret }],
  ])('accepts the key as %s, with the build headers', async (_name, headers) => {
    const response = await get('/debug', headers)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ debug: false })
    for (const header of ['x-proxy-version', 'x-proxy-commit', 'x-proxy-build-date']) expect(response.headers.get(header)).toBeTruthy()
  })

  it('401 missing / invalid management key, build headers on errors too', async () => {
    const missing = await get('/debug')
    expect(missing.status).toBe(401)
    expect(await missing.json()).toEqual({ error: 'missing management key' })
    expect(missing.headers.get('x-proxy-version')).toBeTruthy()
    const wrong = await get('/debug', { authorization: 'Bearer nope' })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toEqual({ error: 'invalid management key' })
  })

  it('a remote client is banned for 30 minutes after 5 failed attempts; localhost never is', async () => {
    const remote = { 'x-test-client-ip': '203.0.113.7' }
    for (let i = 0; i < 5; i++) expect((await get('/debug', { ...remote, authorization: 'Bearer wrong' })).status).toBe(401)
    const banned = await get('/debug', { ...remote, authorization: `Bearer ${managementSecret}` })
    expect(banned.status).toBe(403)
    expect((await banned.json()).error).toMatch(/^IP banned due to too many failed attempts\. Try again in (30m00s|29m5\ds)$/)
    // another remote address and localhost are unaffected
    expect((await get('/debug', { 'x-test-client-ip': '203.0.113.8', authorization: `Bearer ${managementSecret}` })).status).toBe(200)
    for (let i = 0; i < 6; i++) await get('/debug', { authorization: 'Bearer wrong' })
    expect((await get('/debug', { authorization: `Bearer ${managementSecret}` })).status).toBe(200)
  })
})

describe('guesses sent at once', () => {
  // They all passed the ban check before the first failure was counted: a burst got every guess tried.
  it('a burst of wrong keys from one remote address: 5 are tried, the rest refused as banned', async () => {
    const remote = { 'x-test-client-ip': '203.0.113.40' }
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => get('/debug', { ...remote, authorization: `Bearer guess-${i}` }).then(response => response.status)))
    expect(statuses.filter(status => status === 401)).toHaveLength(5)
    expect(statuses.filter(status => status === 403)).toHaveLength(35)
    expect((await get('/debug', { ...remote, authorization: `Bearer ${managementSecret}` })).status).toBe(403)
  })

  it('the right key sent at once many times from one remote address is never banned', async () => {
    const remote = { 'x-test-client-ip': '203.0.113.41' }
    const statuses = await Promise.all(Array.from({ length: 20 }, () => get('/debug', { ...remote, authorization: `Bearer ${managementSecret}` }).then(response => response.status)))
    expect(new Set(statuses)).toEqual(new Set([200]))
  })
})

describe('ban list (fake clock)', () => {
  it('bans at 5 failures for 30 minutes, then lets the address try again; idle entries are purged after 2 hours', () => {
    let now = 0
    const bans = new BanList(() => now)
    for (let i = 0; i < 4; i++) bans.fail('a')
    expect(bans.bannedFor('a')).toBe(0)
    bans.fail('a')
    expect(bans.bannedFor('a')).toBe(30 * 60_000)
    now += 30 * 60_000
    expect(bans.bannedFor('a')).toBe(0)
    bans.fail('b')
    now += idlePurgeMs + 1
    expect(bans.size).toBe(0)
  })
})

describe('remote management switches', () => {
  it('allow-remote false refuses remote clients with 403; an empty secret answers 404', async () => {
    const closed = await startManagedProxy(baseYaml)
    try {
      const response = await fetch(`${closed.proxy.url}/v0/management/debug`, { headers: { 'x-test-client-ip': '198.51.100.1', authorization: `Bearer ${managementSecret}` } })
      expect(response.status).toBe(403)
      expect(await response.json()).toEqual({ error: 'remote management disabled' })
    } finally {
      await closed.close()
    }
    const disabled = await startManagedProxy(baseYaml.replace(`secret-key: ${managementSecret}`, "secret-key: ''"))
    try {
      expect((await fetch(`${disabled.proxy.url}/v0/management/config`, { headers: { authorization: 'Bearer x' } })).status).toBe(404)
    } finally {
      await disabled.close()
    }
  })

  it('MANAGEMENT_PASSWORD overrides the secret and enables remote access', async () => {
    process.env.MANAGEMENT_PASSWORD = 'from-env'
    const managedEnv = await startManagedProxy(baseYaml)
    try {
      const response = await fetch(`${managedEnv.proxy.url}/v0/management/debug`, { headers: { 'x-test-client-ip': '198.51.100.2', authorization: 'Bearer from-env' } })
      expect(response.status).toBe(200)
      expect((await fetch(`${managedEnv.proxy.url}/v0/management/debug`, { headers: { authorization: `Bearer ${managementSecret}` } })).status).toBe(401)
    } finally {
      delete process.env.MANAGEMENT_PASSWORD
      await managedEnv.close()
    }
  })
})
