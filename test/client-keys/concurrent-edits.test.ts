import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'

/**
 * Management writes to one client key at the same moment (the panel disabling it while a script changes
 * its rpm): each answered "ok" is in the result. A PATCH once built the whole entry from what the config
 * held before its turn in the file's write queue, so the last one overwrote the others: a key answered
 * "disabled" stayed enabled. Two creates of one name: one is made, the other is the 409 a sequential one
 * gets (not the file validator's 400).
 */
let managed: ManagedProxy
let plain: TestProxy
beforeAll(async () => {
  managed = await startManagedProxy(`host: 127.0.0.1
remote-management: { secret-key: ${managementSecret} }
client-keys:
  - { key: key-one, name: one }
  - { key: key-two, name: two }
`)
  plain = await startTestProxy({ 'remote-management': { 'secret-key': managementSecret }, 'client-keys': [{ key: 'key-one', name: 'one' }, { key: 'key-two', name: 'two' }] })
})
afterAll(async () => {
  await managed?.close()
  await plain?.close()
})

const admin = (url: string, method: string, path: string, body?: unknown) => fetch(`${url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))

describe.each(['with a config file', 'without one'])('concurrent client-key writes, %s', (which) => {
  const url = () => which === 'without one' ? plain.url : managed.proxy.url

  it('PATCHes of different fields all apply', async () => {
    for (let round = 0; round < 3; round++) {
      await admin(url(), 'PATCH', '/client-keys/one', { rpm: null, disabled: null, owner: null })
      const answers = await Promise.all([
        admin(url(), 'PATCH', '/client-keys/one', { rpm: 7 }),
        admin(url(), 'PATCH', '/client-keys/one', { disabled: true }),
        admin(url(), 'PATCH', '/client-keys/one', { owner: 'ops' }),
      ])
      expect(answers.map(answer => answer.status)).toEqual([200, 200, 200])
      expect((await admin(url(), 'GET', '/client-keys/one')).body).toMatchObject({ rpm: 7, disabled: true, owner: 'ops' })
    }
  })

  it('a rename racing a delete: one of them applies, the other is a 404, nothing is left half-made', async () => {
    const [renamed, deleted] = await Promise.all([
      admin(url(), 'PATCH', '/client-keys/two', { name: 'three' }),
      admin(url(), 'DELETE', '/client-keys/two'),
    ])
    expect([renamed.status, deleted.status].sort()).toEqual([200, 404])
    const names = (await admin(url(), 'GET', '/client-keys')).body['client-keys'].map((entry: { name: string }) => entry.name)
    expect(names.filter((name: string) => name === 'two' || name === 'three')).toEqual(renamed.status === 200 ? ['three'] : [])
  })

  it('two creates of one name: one 200, one 409', async () => {
    const answers = await Promise.all([0, 1].map(() => admin(url(), 'POST', '/client-keys', { name: 'twin' })))
    expect(answers.map(answer => answer.status).sort()).toEqual([200, 409])
    expect((await admin(url(), 'GET', '/client-keys')).body['client-keys'].filter((entry: { name: string }) => entry.name === 'twin')).toHaveLength(1)
  })
})
