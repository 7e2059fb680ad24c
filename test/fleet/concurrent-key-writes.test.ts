import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisFleet, type RedisFleet } from '../helpers/redis-proxy-process.ts'

/**
 * Client keys created at once through two instances' APIs, Redis up: each commit that lost the race is
 * merged onto the newer version. The `client-keys` list grew on both sides, and a list whose length
 * changed was replaced whole by the later commit: some keys answered 200 and existed nowhere after.
 * Lists of named entries are merged by name.
 */
const secret = 'fleet-key-writes-admin'
let fleet: RedisFleet

beforeAll(async () => {
  fleet = await startRedisFleet('key-writes', 2, [`remote-management: { secret-key: '${secret}' }`, 'client-keys:', '  - { key: first-key, name: first }'], { oneByOne: true })
}, 30_000)
afterAll(() => fleet?.close())

const admin = (i: number, method: string, path: string, body?: unknown) => fetch(`${fleet.instances[i]!.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
})
const names = async (i: number) => ((await (await admin(i, 'GET', '/client-keys')).json()) as any)['client-keys'].map((key: { name: string }) => key.name).sort()

describe('client keys written at once on two instances', () => {
  it('every key created, deleted or changed with a 200 is so on both', async () => {
    const created = Array.from({ length: 10 }, (_, i) => `key-${i}`)
    const answers = await Promise.all(created.map((name, i) => admin(i % 2, 'POST', '/client-keys', { name, rpm: 10 + i })))
    expect(answers.map(r => r.status)).toEqual(created.map(() => 200))
    const expected = ['first', ...created].sort()
    for (const i of [0, 1]) await expect.poll(() => names(i), { timeout: 5000 }).toEqual(expected)
    // Removals and edits at once, spread the same way.
    const changes = await Promise.all([
      ...created.slice(0, 4).map((name, i) => admin(i % 2, 'DELETE', `/client-keys/${name}`)),
      ...created.slice(4).map((name, i) => admin(i % 2, 'PATCH', `/client-keys/${name}`, { rpm: 1 })),
    ])
    expect(changes.map(r => r.status)).toEqual(created.map(() => 200))
    for (const i of [0, 1]) {
      await expect.poll(() => names(i), { timeout: 5000 }).toEqual(['first', ...created.slice(4)].sort())
      const rpms = async () => ((await (await admin(i, 'GET', '/client-keys')).json()) as any)['client-keys'].filter((key: { name: string }) => key.name !== 'first').map((key: { rpm: number }) => key.rpm)
      await expect.poll(rpms, { timeout: 5000 }).toEqual(created.slice(4).map(() => 1))
    }
  })

  it('one name created on both at once: one 200 whose key works on both, the other a 409', async () => {
    const chat = (i: number, key: string) => fetch(`${fleet.instances[i]!.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } }).then(r => r.status)
    for (let round = 0; round < 5; round++) {
      const name = `same-${round}`
      const answers = await Promise.all([0, 1].map(async i => {
        const response = await admin(i, 'POST', '/client-keys', { name })
        return { status: response.status, key: ((await response.json()) as { key?: string }).key }
      }))
      expect(answers.map(a => a.status).sort()).toEqual([200, 409])
      const given = answers.find(a => a.status === 200)!.key!
      for (const i of [0, 1]) await expect.poll(() => chat(i, given), { timeout: 5000 }).toBe(200)
    }
  })
})

describe('one key or one name claimed twice at once on two instances', () => {
  const listed = async (i: number) => ((await (await admin(i, 'GET', '/client-keys')).json()) as any)['client-keys'] as Array<{ name: string; key_hash: string }>

  it('one plain key created under two names: one 200, the other a 409, one entry holds it', async () => {
    for (let round = 0; round < 5; round++) {
      const key = `shared-secret-${round}-${Math.random().toString(36).slice(2)}`
      const answers = await Promise.all([0, 1].map(async i => (await admin(i, 'POST', '/client-keys', { name: `twin-${round}-${i}`, key })).status))
      expect(answers.sort()).toEqual([200, 409])
      for (const i of [0, 1]) {
        await expect.poll(async () => (await listed(i)).filter(entry => entry.name.startsWith(`twin-${round}-`)).length, { timeout: 5000 }).toBe(1)
      }
    }
  })

  it('a rename racing a create of the new name: exactly one 200, the other a 409, no name twice', async () => {
    for (let round = 0; round < 6; round++) {
      const from = `old-${round}`
      const to = `new-${round}`
      expect((await admin(0, 'POST', '/client-keys', { name: from })).status).toBe(200)
      for (const i of [0, 1]) await expect.poll(async () => (await listed(i)).some(entry => entry.name === from), { timeout: 5000 }).toBe(true)
      // Which side goes first alternates: the create committed first, or the rename.
      const [renamer, creator] = round % 2 ? [0, 1] : [1, 0]
      const [renamed, created] = await Promise.all([
        admin(renamer, 'PATCH', `/client-keys/${from}`, { name: to }),
        admin(creator, 'POST', '/client-keys', { name: to }),
      ])
      expect([renamed.status, created.status].sort()).toEqual([200, 409])
      const expected = renamed.status === 200 ? [to] : [from, to].sort()
      for (const i of [0, 1]) {
        await expect.poll(async () => (await listed(i)).filter(entry => entry.name === from || entry.name === to).map(entry => entry.name).sort(), { timeout: 5000 }).toEqual(expected)
      }
    }
  })
})
