import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli, type CliProcess } from '../helpers/spawn-cli.ts'
import { createProxyStorage } from '../../core/storage/storage.ts'

/**
 * Issue 19.2: what two instances on one Redis share besides the config, with no shared disk: credential
 * files (uploads, deletions, token refreshes: one instance refreshes, under a lease, and the new token
 * reaches the other), sign-ins in progress, and the management ban list.
 */
const base = `proxy-fleet-state-${process.pid}-${Date.now()}`
const secret = 'fleet-state-admin'
const fakeAddress = fileURLToPath(new URL('../partner/fake-address-plugin.ts', import.meta.url))
let root: string
let oauth: MockUpstream
let tokenCalls = 0
const codes = new Map<string, string>()
const instances: Array<{ cli: CliProcess; url: string; authDir: string }> = []

beforeAll(async () => {
  oauth = await startMockUpstream(async (request) => {
    const text = await request.text()
    const params = request.headers.get('content-type')?.includes('json') ? new URLSearchParams(JSON.parse(text)) : new URLSearchParams(text)
    if (params.get('grant_type') === 'refresh_token') {
      tokenCalls++
      await new Promise(resolve => setTimeout(resolve, 200))
      return Response.json({ access_token: `fresh-${tokenCalls}`, refresh_token: `rotated-${tokenCalls}`, expires_in: 3600 })
    }
    const challenge = codes.get(params.get('code') ?? '')
    if (!challenge || createHash('sha256').update(params.get('code_verifier') ?? '').digest('base64url') !== challenge) return Response.json({ error: 'invalid_grant' }, { status: 400 })
    return Response.json({ access_token: 'signed-in', refresh_token: 'signed-in-refresh', expires_in: 3600, account: { email_address: 'fleet@example.test' } })
  })
  root = mkdtempSync(join(tmpdir(), 'proxy-fleet-state-'))
  // The same credential file, due for refresh, copied into both instances' auth-dirs (as a deployment would).
  const due = JSON.stringify({ type: 'beta', access_token: 'old', refresh_token: 'r0', expiry: new Date(Date.now() - 1000).toISOString(), base_url: 'http://127.0.0.1:9' })
  for (const name of ['a', 'b']) {
    const dir = join(root, name)
    const authDir = join(dir, 'auths')
    mkdirSync(authDir, { recursive: true })
    writeFileSync(join(authDir, 'beta-shared.json'), due)
    writeFileSync(join(dir, 'proxy.config.mjs'), `export default { config: './config.yaml', plugins: ['${fakeAddress}'], storage: { driver: 'redis', url: 'redis://127.0.0.1:6379', base: '${base}' } }\n`)
    writeFileSync(join(dir, 'config.yaml'), [
      'host: 127.0.0.1',
      'api-keys: [client]',
      `auth-dir: ${authDir}`,
      `remote-management: { allow-remote: true, secret-key: '${secret}' }`,
      'oauth-clients:',
      `  beta: { authorize-url: '${oauth.url}/authorize', token-url: '${oauth.url}/token', client-id: fleet-test }`,
      '',
    ].join('\n'))
  }
  for (const name of ['a', 'b']) {
    const dir = join(root, name)
    const cli = runCli(['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0'], dir)
    instances.push({ cli, url: '', authDir: join(dir, 'auths') })
  }
  for (const instance of instances) instance.url = await instance.cli.url
}, 30_000)
afterAll(async () => {
  await Promise.all(instances.map(i => i.cli.kill('SIGKILL')))
  await oauth.close()
  rmSync(root, { recursive: true, force: true })
  const storage = await createProxyStorage({ driver: 'redis', base })
  for (const key of await storage.getKeys()) await storage.removeItem(key)
  await storage.dispose()
})

const admin = (i: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => fetch(`${instances[i]!.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
})
const fileText = (i: number, name: string) => existsSync(join(instances[i]!.authDir, name)) ? readFileSync(join(instances[i]!.authDir, name), 'utf8') : undefined

describe('state shared through Redis, no shared disk', () => {
  it('a due token is refreshed by one instance only (lease), and the new token reaches both', async () => {
    await expect.poll(() => fileText(0, 'beta-shared.json'), { timeout: 8000 }).toContain('fresh-')
    await expect.poll(() => fileText(1, 'beta-shared.json'), { timeout: 8000 }).toContain('fresh-')
    expect(tokenCalls).toBe(1)
    expect(JSON.parse(fileText(0, 'beta-shared.json')!).refresh_token).toBe('rotated-1')
    expect(JSON.parse(fileText(1, 'beta-shared.json')!).refresh_token).toBe('rotated-1')
  })

  it('a credential file uploaded on one appears on the other; deleted there, it is gone here', async () => {
    const file = { type: 'beta', access_token: 'uploaded', expiry: new Date(Date.now() + 3_600_000).toISOString() }
    const started = performance.now()
    expect((await fetch(`${instances[0]!.url}/v0/management/auth-files?name=beta-upload.json`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(file) })).status).toBe(200)
    await expect.poll(async () => (await (await admin(1, 'GET', '/auth-files')).json()).files.map((f: { name: string }) => f.name), { timeout: 5000, interval: 20 }).toContain('beta-upload.json')
    console.log(`credential file upload -> other instance: ${(performance.now() - started).toFixed(0)} ms`)
    expect(JSON.parse(fileText(1, 'beta-upload.json') ?? 'null'), `${readdirSync(instances[1]!.authDir)}`).toMatchObject(file)
    expect((await admin(1, 'DELETE', '/auth-files?name=beta-upload.json')).status).toBe(200)
    await expect.poll(() => fileText(0, 'beta-upload.json'), { timeout: 5000 }).toBeUndefined()
  })

  it('a sign-in started on one instance can be finished on the other, and followed from both', async () => {
    const { url, state } = await (await admin(0, 'GET', '/beta-auth-url')).json() as { url: string; state: string }
    const authorize = new URL(url)
    codes.set('code-1', authorize.searchParams.get('code_challenge')!)
    // The vendor redirects the browser to whichever instance the balancer picks: here the other one.
    const callback = await fetch(`${instances[1]!.url}/beta/callback?state=${state}&code=code-1`)
    expect(callback.status, await callback.clone().text()).toBe(200)
    expect(await (await admin(0, 'GET', `/get-auth-status?state=${state}`)).json()).toEqual({ status: 'ok', file: 'beta-fleet@example.test.json' })
    await expect.poll(() => fileText(0, 'beta-fleet@example.test.json'), { timeout: 5000 }).toContain('signed-in')
  })

  it('failed management logins from one address count on every instance: banned on both', async () => {
    const remote = { 'x-test-client-ip': '203.0.113.9' }
    for (let i = 0; i < 5; i++) expect((await admin(i % 2, 'GET', '/debug', undefined, { ...remote, authorization: 'Bearer wrong' })).status).toBe(401)
    for (const i of [0, 1]) {
      const banned = await admin(i, 'GET', '/debug', undefined, remote)
      expect(banned.status).toBe(403)
      expect((await banned.json()).error).toMatch(/^IP banned/)
    }
  })
})
