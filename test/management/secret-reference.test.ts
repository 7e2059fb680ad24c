import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startManagedProxy, type ManagedProxy } from './helpers.ts'

/**
 * `remote-management.secret-key: ${env:…}` (or `${file:…}`), as configuration.md shows it. The start-up
 * rewrite hashed the resolved secret into the file, so the reference was gone and a rotated secret
 * never took effect; and a PUT /config.yaml of a text holding the reference (the panel's editor saving
 * the file) hashed the reference's own text: the operator's key stopped working and the text
 * `${env:…}`, readable in the file, became the management key.
 */
const realKey = 'the-real-management-key-from-env'
const reference = `\${env:SR_MANAGEMENT_KEY}`
const yaml = `host: 127.0.0.1
auth-dir: /nonexistent-auth-dir
remote-management:
  secret-key: '${reference}' # from the vault
request-retry: 3
`

let managed: ManagedProxy
beforeAll(() => { process.env.SR_MANAGEMENT_KEY = realKey })
afterAll(() => { delete process.env.SR_MANAGEMENT_KEY })
beforeEach(async () => { managed = await startManagedProxy(yaml) })
afterEach(() => managed.close())

const call = (key: string, method = 'GET', path = '/config.yaml', body?: string) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/yaml' }, body,
})

describe('a management secret given by reference', () => {
  it('stays a reference in the file at start-up; the key works; GET /config shows a hash, never the secret', async () => {
    expect(managed.text()).toBe(yaml)
    expect((await call(realKey)).status).toBe(200)
    expect((await call(reference)).status).toBe(401)
    const config = await (await call(realKey, 'GET', '/config')).text()
    expect(config).not.toContain(realKey)
    expect(JSON.parse(config)['remote-management']['secret-key']).toMatch(/^\$2[aby]\$/)
  })

  it('PUT /config.yaml with the reference keeps it: the real key still works, its text does not', async () => {
    const text = yaml.replace('request-retry: 3', 'request-retry: 4')
    expect((await call(realKey, 'PUT', '/config.yaml', text)).status).toBe(200)
    expect(managed.text()).toBe(text)
    expect((await call(realKey)).status).toBe(200)
    expect((await call(reference)).status).toBe(401)
  })
})
