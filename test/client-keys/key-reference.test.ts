import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import bcrypt from 'bcryptjs'
import { writeFileSync } from 'node:fs'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'

/**
 * A named client key given by `${env:…}` (configuration.md: client keys may come from the environment
 * or a file). Plain keys in the file are replaced by their hash; the resolved reference was taken for
 * one, so its hash was written over the reference and a rotated key never took effect. The hashing
 * also found its entries by their index in the running config, before its turn in the write queue.
 */
const yaml = `host: 127.0.0.1
auth-dir: /nonexistent-auth-dir
remote-management: { secret-key: '${bcrypt.hashSync(managementSecret, 4)}' }
client-keys:
  - name: ci
    key: \${env:KR_CI_KEY} # from the CI secret store
`

let managed: ManagedProxy
beforeAll(() => { process.env.KR_CI_KEY = 'ci-key-from-the-environment' })
afterAll(() => { delete process.env.KR_CI_KEY })
beforeEach(async () => { managed = await startManagedProxy(yaml) })
afterEach(() => managed.close())

const models = (key: string) => fetch(`${managed.proxy.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } }).then(response => response.status)
const admin = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
}).then(response => response.status)

describe('a client key given by reference', () => {
  it('stays a reference in the file, and the key it names works', async () => {
    expect(managed.text()).toBe(yaml)
    expect(await models('ci-key-from-the-environment')).toBe(200)
  })

  it('a plain key added by hand is hashed in its own entry, the reference left alone', async () => {
    writeFileSync(managed.path, `${yaml}  - { name: dev, key: dev-plain-key }\n`)
    // A write makes the proxy read the file (tests run without a watcher).
    expect(await admin('PUT', '/debug', { value: true })).toBe(200)
    await expect.poll(() => managed.text(), { timeout: 5000 }).toContain('key: sha256:')
    expect(managed.text()).toContain(`key: \${env:KR_CI_KEY} # from the CI secret store`)
    expect(managed.text()).not.toContain('dev-plain-key')
    expect(await models('dev-plain-key')).toBe(200)
    expect(await models('ci-key-from-the-environment')).toBe(200)
  })
})
