import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import bcrypt from 'bcryptjs'
import { entryRef } from '../../panel/src/entry-ref.ts'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'

/**
 * The panel named the entry to remove or edit by its index in the list it loaded. With two operators
 * at work, a list changed meanwhile made the call hit the entry now at that index: the key chosen for
 * removal (a leaked one) stayed, and a good key went. The panel names an entry by its value now.
 */
let managed: ManagedProxy
beforeAll(async () => {
  managed = await startManagedProxy(`host: 127.0.0.1
auth-dir: /nonexistent-auth-dir
remote-management: { secret-key: '${bcrypt.hashSync(managementSecret, 4)}' }
api-keys: [k-one, k-leaked, k-three, twice, twice]
gamma-api-key: [{ api-key: g-one }, { api-key: g-leaked }, { api-key: g-three }]
`)
})
afterAll(() => managed.close())

const call = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))

describe('the panel names list entries by value', () => {
  it('a remove chosen on a stale list removes the key chosen', async () => {
    const loaded = (await call('GET', '/api-keys')).body['api-keys']
    // Someone else removes the first key meanwhile.
    expect((await call('DELETE', '/api-keys?value=k-one')).status).toBe(200)
    expect((await call('DELETE', `/api-keys?${entryRef(loaded, 1).query}`)).status).toBe(200)
    expect(managed.yaml()['api-keys']).toEqual(['k-three', 'twice', 'twice'])
  })

  it('an edit and a remove of a provider key chosen on a stale list change the entries chosen', async () => {
    const loaded = (await call('GET', '/gamma-api-key')).body['gamma-api-key']
    expect((await call('DELETE', '/gamma-api-key?api-key=g-one')).status).toBe(200)
    expect((await call('PATCH', '/gamma-api-key', { ...entryRef(loaded, 2, 'api-key').body, value: { prefix: 'team' } })).status).toBe(200)
    expect((await call('DELETE', `/gamma-api-key?${entryRef(loaded, 1, 'api-key').query}`)).status).toBe(200)
    expect(managed.yaml()['gamma-api-key']).toEqual([{ 'api-key': 'g-three', prefix: 'team' }])
  })

  it('an entry that is there twice is named by index', () => {
    expect(entryRef(['a', 'twice', 'twice'], 2)).toEqual({ query: 'index=2', body: { index: 2 } })
    expect(entryRef(['a', 'b&c'], 1)).toEqual({ query: 'value=b%26c', body: { old: 'b&c' } })
  })
})
