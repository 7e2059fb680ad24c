import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import bcrypt from 'bcryptjs'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'

/**
 * `auth-dir` does not exist on a fresh install (`~/.model-proxy/auths` by default). An upload through
 * the API (the panel's Credential files page) answered 500 `internal error` (ENOENT on the temp file).
 * It now creates the folder (owner only) and watches it, as a folder present at start is watched.
 */
let managed: ManagedProxy
const root = mkdtempSync(join(tmpdir(), 'proxy-auth-dir-'))
const authDir = join(root, 'not-yet', 'auths')
beforeAll(async () => {
  managed = await startManagedProxy(`host: 127.0.0.1
auth-dir: ${authDir}
remote-management: { secret-key: '${bcrypt.hashSync(managementSecret, 4)}' }
`)
})
afterAll(async () => {
  await managed.close()
  rmSync(root, { recursive: true, force: true })
})

const call = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))
const listed = async () => (await call('GET', '/auth-files')).body.files.map((file: { name: string }) => file.name)

describe('a credential upload to an auth-dir that does not exist yet', () => {
  it('creates the folder (mode 700), serves the file, and watches the folder from then on', async () => {
    expect(await call('POST', '/auth-files?name=first.json', { type: 'gamma', access_token: 'token-1' })).toEqual({ status: 200, body: { status: 'ok', name: 'first.json' } })
    expect(statSync(authDir).mode & 0o777).toBe(0o700)
    expect(managed.proxy.proxy.kernel.credentials.map(credential => credential.id)).toContain('file:first.json')
    // A file put there by hand afterwards is seen, as in a folder that existed at start.
    writeFileSync(join(authDir, 'by-hand.json'), JSON.stringify({ type: 'gamma', access_token: 'token-2' }))
    await expect.poll(listed, { timeout: 5000 }).toEqual(['by-hand.json', 'first.json'])
  })
})
