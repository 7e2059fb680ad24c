import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startRedisFleet, type RedisFleet } from '../helpers/redis-proxy-process.ts'

/**
 * Two proxy processes on one Redis. An operator blocks a leaked key on instance A while another removes
 * the entry above it on instance B before B has pulled the block. The config change reaches A through Redis and
 * renumbers the keys (`compat:pool:0.1` is now k-three); the block reaches B as a credential state. On
 * both, the block must stay with the leaked key, wherever it now sits, and no request may use it.
 */
const secret = 'follows-admin'
let upstream: MockUpstream
let fleet: RedisFleet
let instances: RedisFleet['instances'] = []

beforeAll(async () => {
  upstream = await startMockOpenAI()
  fleet = await startRedisFleet('follows', 2, [
    `remote-management: { secret-key: '${secret}' }`,
    'api-keys: [client]',
    'request-retry: 0',
    'compat-provider:',
    `  - { name: pool, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: k-one }, { api-key: k-leaked }, { api-key: k-three }], models: [{ name: m }] }`,
  ])
  instances = fleet.instances
}, 60_000)
afterAll(async () => {
  await fleet?.close()
  await upstream?.close()
})

const admin = (i: number, method: string, path: string, body?: unknown) => fetch(`${instances[i]!.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))
const chat = (i: number) => fetch(`${instances[i]!.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
}).then(response => response.status)
/** Each credential's id and state on instance `i`, in list order. */
const states = async (i: number) => ((await admin(i, 'GET', '/credentials')).body.credentials as Array<{ id: string; state: string }>)
  .map(credential => `${credential.id}=${credential.state}`)

describe('credential states follow the key across instances', () => {
  it('a block on one instance and a removal above the key on another, before they met: the leaked key stays blocked on both', async () => {
    const [pool] = (await admin(1, 'GET', '/compat-provider')).body['compat-provider']
    const entries = pool['api-key-entries'].filter((entry: { 'api-key': string }) => entry['api-key'] !== 'k-one')
    // The removal follows the block at once: B has not pulled A's block yet (it reads states every 500 ms).
    const block = await admin(0, 'POST', '/credentials/block', { id: 'compat:pool:0.1', reason: 'leaked' })
    const removal = await admin(1, 'PATCH', '/compat-provider', { name: 'pool', value: { 'api-key-entries': entries } })
    expect([block.status, removal.status]).toEqual([200, 200])
    // After the removal, k-leaked is compat:pool:0.0 and k-three compat:pool:0.1, on both instances.
    const expected = ['compat:pool:0.0=blocked', 'compat:pool:0.1=ready']
    await expect.poll(() => states(0), { timeout: 5000 }).toEqual(expected)
    await expect.poll(() => states(1), { timeout: 5000 }).toEqual(expected)
    upstream.requests.length = 0
    for (let i = 0; i < 6; i++) expect(await chat(i % 2)).toBe(200)
    expect(new Set(upstream.requests.map(request => request.headers.authorization))).toEqual(new Set(['Bearer k-three']))
  }, 30_000)

  it('a block on one instance and a reorder on the other, before they met: the block follows the key', async () => {
    const [pool] = (await admin(0, 'GET', '/compat-provider')).body['compat-provider']
    const reversed = [...pool['api-key-entries']].reverse() // k-three first, then k-leaked
    // k-three is compat:pool:0.1 until the reorder; A reorders before it has pulled B's block.
    const block = await admin(1, 'POST', '/credentials/block', { id: 'compat:pool:0.1', reason: 'over budget' })
    const reorder = await admin(0, 'PATCH', '/compat-provider', { name: 'pool', value: { 'api-key-entries': reversed } })
    expect([reorder.status, block.status]).toEqual([200, 200])
    // k-three (now 0.0) blocked by B's block; k-leaked (now 0.1) still blocked from the first test.
    const expected = ['compat:pool:0.0=blocked', 'compat:pool:0.1=blocked']
    await expect.poll(() => states(0), { timeout: 5000 }).toEqual(expected)
    await expect.poll(() => states(1), { timeout: 5000 }).toEqual(expected)
    // Unblocking k-leaked where it is now, on A, reaches B; k-three stays blocked.
    expect((await admin(0, 'POST', '/credentials/unblock', { id: 'compat:pool:0.1' })).status).toBe(200)
    await expect.poll(() => states(1), { timeout: 5000 }).toEqual(['compat:pool:0.0=blocked', 'compat:pool:0.1=ready'])
    upstream.requests.length = 0
    for (let i = 0; i < 4; i++) expect(await chat(i % 2)).toBe(200)
    expect(new Set(upstream.requests.map(request => request.headers.authorization))).toEqual(new Set(['Bearer k-leaked']))
  }, 30_000)
})
