import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import bcrypt from 'bcryptjs'
import { startManagedProxy, managementSecret, type ManagedProxy } from './helpers.ts'

/**
 * A provider entry's `headers` go upstream with every request it serves. A value with a line break or a
 * name with a space was accepted (by the file and by management writes), and then every request of
 * that entry failed with a 500 blaming the `before-upstream` plugins. Now the write is refused, naming
 * the header, and nothing is written.
 */
let managed: ManagedProxy
beforeAll(async () => {
  managed = await startManagedProxy(`host: 127.0.0.1
auth-dir: /nonexistent-auth-dir
remote-management: { secret-key: '${bcrypt.hashSync(managementSecret, 4)}' }
compat-provider:
  - { name: up, base-url: "http://127.0.0.1:9/v1", api-key-entries: [{ api-key: u1 }], models: [{ name: m1 }] }
gamma-api-key:
  - api-key: g1
`)
})
afterAll(() => managed.close())

const call = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))

describe('provider entry headers', () => {
  it.each([
    [{ 'x-team': 'a\r\nX-Injected: 1' }, 'compat-provider[0].headers.x-team: must be one line of text'],
    [{ 'x-team': 'a\u0000b' }, 'compat-provider[0].headers.x-team: must be one line of text'],
    [{ 'bad name': 'v' }, 'compat-provider[0].headers.bad name: must be an HTTP header name'],
  ])('%j is refused by PATCH and PUT, naming it; nothing is written', async (headers, message) => {
    const before = managed.text()
    const patched = await call('PATCH', '/compat-provider', { name: 'up', value: { headers } })
    expect(patched).toMatchObject({ status: 400, body: { error: 'invalid_config', message: expect.stringContaining(message) } })
    const [entry] = (await call('GET', '/compat-provider')).body['compat-provider']
    expect((await call('PUT', '/compat-provider', [{ ...entry, headers }])).status).toBe(400)
    expect((await call('PATCH', '/gamma-api-key', { index: 0, value: { headers } })).status).toBe(400)
    expect(managed.text()).toBe(before)
  })

  it('ordinary headers are still taken', async () => {
    expect((await call('PATCH', '/compat-provider', { name: 'up', value: { headers: { 'x-team': 'blue team; v=1', 'OpenAI-Beta': 'assistants=v2' } } })).status).toBe(200)
    expect(managed.yaml()['compat-provider'][0].headers).toEqual({ 'x-team': 'blue team; v=1', 'OpenAI-Beta': 'assistants=v2' })
  })
})
