import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import bcrypt from 'bcryptjs'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'

/**
 * Key entries are numbered by position (`compat:pool:0.1`) and credential states (blocked, cooldowns)
 * were kept by that id. An operator blocks a leaked key, then removes another entry above it: the leaked
 * key moved to the freed id, which had no block, and was used again, while the key that moved onto the
 * blocked id was refused. States now follow the key.
 */
let upstream: MockUpstream
let managed: ManagedProxy
beforeAll(async () => {
  upstream = await startMockOpenAI()
  managed = await startManagedProxy(`host: 127.0.0.1
auth-dir: /nonexistent-auth-dir
api-keys: [client]
remote-management: { secret-key: '${bcrypt.hashSync(managementSecret, 4)}' }
compat-provider:
  - name: pool
    base-url: ${upstream.url}/v1
    api-key-entries: [{ api-key: k-one }, { api-key: k-leaked }, { api-key: k-three }]
    models: [{ name: m }]
`)
})
afterAll(async () => {
  await managed.close()
  await upstream.close()
})

const call = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))
/** Each key with its state, as the operator sees them. */
async function states() {
  const { credentials } = (await call('GET', '/credentials')).body
  const keyOf = (id: string) => managed.proxy.proxy.kernel.credentials.find(credential => credential.id === id)?.apiKey
  return Object.fromEntries(credentials.map((credential: { id: string; state: string }) => [keyOf(credential.id), credential.state]))
}
const chat = () => fetch(`${managed.proxy.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
})

describe('credential states follow the key, not its place in the list', () => {
  it('a blocked key stays blocked when an entry above it is removed, and is never used', async () => {
    expect((await call('POST', '/credentials/block', { id: 'compat:pool:0.1', reason: 'leaked' })).status).toBe(200)
    expect(await states()).toEqual({ 'k-one': 'ready', 'k-leaked': 'blocked', 'k-three': 'ready' })
    const [pool] = (await call('GET', '/compat-provider')).body['compat-provider']
    const entries = pool['api-key-entries'].filter((entry: { 'api-key': string }) => entry['api-key'] !== 'k-one')
    expect((await call('PATCH', '/compat-provider', { name: 'pool', value: { 'api-key-entries': entries } })).status).toBe(200)
    expect(await states()).toEqual({ 'k-leaked': 'blocked', 'k-three': 'ready' })
    upstream.requests.length = 0
    for (let i = 0; i < 4; i++) expect((await chat()).status).toBe(200)
    expect(new Set(upstream.requests.map(request => request.headers.authorization))).toEqual(new Set(['Bearer k-three']))
  })

  it('a reorder keeps each key\'s state; unblocking finds the key where it is now', async () => {
    const idOf = (key: string) => managed.proxy.proxy.kernel.credentials.find(credential => credential.apiKey === key)!.id
    for (const key of ['k-leaked', 'k-three']) await call('POST', '/credentials/unblock', { id: idOf(key) })
    expect((await call('POST', '/credentials/block', { id: idOf('k-three'), reason: 'over budget' })).status).toBe(200)
    const [pool] = (await call('GET', '/compat-provider')).body['compat-provider']
    const reversed = [...pool['api-key-entries']].reverse()
    expect((await call('PATCH', '/compat-provider', { name: 'pool', value: { 'api-key-entries': reversed } })).status).toBe(200)
    expect(await states()).toEqual({ 'k-three': 'blocked', 'k-leaked': 'ready' })
    expect((await call('POST', '/credentials/unblock', { id: idOf('k-three') })).status).toBe(200)
    expect(await states()).toEqual({ 'k-three': 'ready', 'k-leaked': 'ready' })
  })
})
