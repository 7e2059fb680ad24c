import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { startRedisFleet, type RedisFleet } from '../helpers/redis-proxy-process.ts'

/**
 * Two proxy processes on one Redis. An operator blocks credentials on instance A while instance B has
 * requests on them in flight; their answers carry quota headers, which B records in the same
 * credentials' states and writes to Redis before it has pulled A's blocks. The blocks must hold on
 * both instances: each instance's write of a credential's state carries only what it changed.
 */
const secret = 'merge-admin'
const ids = [0, 1, 2, 3].map(i => `compat:x${i}:${i}.0`)
let upstream: MockUpstream
let release: () => void = () => {}
let fleet: RedisFleet
let instances: RedisFleet['instances'] = []

beforeAll(async () => {
  upstream = await startMockUpstream(async (request) => {
    await new Promise<void>(resolve => { const previous = release; release = () => { previous(); resolve() } })
    const answer = await openaiMock(request)
    const headers = new Headers(answer.headers)
    headers.set('x-ratelimit-limit-requests', '100')
    headers.set('x-ratelimit-remaining-requests', '40')
    return new Response(answer.body, { status: answer.status, headers })
  })
  fleet = await startRedisFleet('merge', 2, [
    `remote-management: { secret-key: '${secret}' }`,
    'api-keys: [client]',
    'request-retry: 0',
    'compat-provider:',
    ...[0, 1, 2, 3].map(i => `  - { name: x${i}, base-url: '${upstream.url}/v1', api-key-entries: [{ api-key: k${i} }], models: [{ name: mock-gpt, alias: m }] }`),
  ])
  instances = fleet.instances
}, 60_000)
afterAll(async () => {
  release()
  await fleet?.close()
  await upstream?.close()
})

const chat = (i: number) => fetch(`${instances[i]!.url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client', 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
}).then(response => response.status)
const admin = (i: number, method: string, path: string, body?: unknown) => fetch(`${instances[i]!.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
}).then(response => response.json() as Promise<any>)
const states = async (i: number) => Object.fromEntries(((await admin(i, 'GET', '/credentials')).credentials as Array<{ id: string; state: string }>).map(c => [c.id, c.state]))

describe('credential states written by two instances at once', () => {
  it('blocks made on one instance hold while the other writes quota windows of the same credentials', async () => {
    for (let round = 0; round < 2; round++) {
      // One request on each credential, held by the upstream until the blocks are in.
      const answers = Promise.all(ids.map(() => chat(1)))
      await expect.poll(() => upstream.requests.length, { timeout: 5000 }).toBe(4 * (round + 1))
      for (const id of ids) await admin(0, 'POST', '/credentials/block', { id, reason: `round ${round}` })
      await new Promise(resolve => setTimeout(resolve, 20))
      release()
      expect(await answers).toEqual([200, 200, 200, 200])
      const blocked = Object.fromEntries(ids.map(id => [id, 'blocked']))
      await new Promise(resolve => setTimeout(resolve, 1500))
      expect(await states(0)).toEqual(blocked)
      expect(await states(1)).toEqual(blocked)
      // Unblocked again; past the 2 s between two writes of a credential's windows for the next round.
      for (const id of ids) await admin(0, 'POST', '/credentials/unblock', { id })
      await expect.poll(() => states(1), { timeout: 3000 }).toEqual(Object.fromEntries(ids.map(id => [id, 'ready'])))
      await new Promise(resolve => setTimeout(resolve, 1500))
    }
  }, 40_000)
})
