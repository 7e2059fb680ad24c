import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { startRedisFleet, type RedisFleet } from '../helpers/redis-proxy-process.ts'

/**
 * A management write that puts back what the config was a moment ago (re-enable a key just disabled,
 * delete a key just created) is made on the version the instance holds, and is committed as such. The
 * sync takes a file that matches a version replaced in the last seconds for an editor's late save and
 * keeps only that save's change; applied to an API write, that answered 200 and dropped the write.
 * The same for a credential file uploaded again as it was a moment before.
 */
const secret = 'fleet-undo-admin'
let fleet: RedisFleet
const instances = () => fleet.instances

beforeAll(async () => {
  fleet = await startRedisFleet('undo', 2, dir => [
    `remote-management: { secret-key: '${secret}' }`,
    'request-retry: 1',
    `auth-dir: ${join(dir, 'auths')}`,
    'client-keys:',
    '  - { key: first-key, name: first }',
  ], { oneByOne: true })
}, 30_000)
afterAll(() => fleet?.close())

const admin = async (i: number, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${instances()[i]!.url}/v0/management${path}`, {
    method, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: await response.json() as any }
}
const keyStates = async (i: number) => Object.fromEntries((await admin(i, 'GET', '/client-keys')).body['client-keys'].map((key: any) => [key.name, key.state]))
const fileOf = (i: number) => parse(readFileSync(instances()[i]!.file, 'utf8'))
/** Lets both instances apply every version (a round trip is well under this), so nothing is still in flight. */
const settled = () => new Promise(resolve => setTimeout(resolve, 1500))

describe('a write through the API that undoes a recent change', () => {
  it('on the instance that made the change: re-enabled at once, the key is active on both', async () => {
    expect((await admin(0, 'PATCH', '/client-keys/first', { disabled: true })).status).toBe(200)
    expect((await admin(0, 'PATCH', '/client-keys/first', { disabled: null })).status).toBe(200)
    await settled()
    expect(await keyStates(0)).toEqual({ first: 'active' })
    expect(await keyStates(1)).toEqual({ first: 'active' })
    expect(fileOf(0)['client-keys'][0].disabled).toBeUndefined()
  })

  it('on another instance: a key disabled on one and re-enabled on the other is active on both', async () => {
    expect((await admin(0, 'PATCH', '/client-keys/first', { disabled: true })).status).toBe(200)
    await expect.poll(() => keyStates(1)).toEqual({ first: 'disabled' })
    expect((await admin(1, 'PATCH', '/client-keys/first', { disabled: null })).status).toBe(200)
    await settled()
    expect(await keyStates(1)).toEqual({ first: 'active' })
    expect(await keyStates(0)).toEqual({ first: 'active' })
  })

  it('a key created on one and deleted on the other at once is gone from both', async () => {
    expect((await admin(1, 'POST', '/client-keys', { name: 'second', rpm: 2 })).status).toBe(200)
    await expect.poll(() => keyStates(0)).toEqual({ first: 'active', second: 'active' })
    expect((await admin(0, 'DELETE', '/client-keys/second')).status).toBe(200)
    await settled()
    expect(await keyStates(0)).toEqual({ first: 'active' })
    expect(await keyStates(1)).toEqual({ first: 'active' })
    expect(fileOf(1)['client-keys']).toHaveLength(1)
  })

  it('a setting changed and put back at once stays put back', async () => {
    expect((await admin(1, 'PUT', '/request-retry', { value: 3 })).status).toBe(200)
    expect((await admin(1, 'PUT', '/request-retry', { value: 1 })).status).toBe(200)
    await settled()
    for (const i of [0, 1]) expect((await admin(i, 'GET', '/request-retry')).body['request-retry']).toBe(1)
  })

  it('a credential file uploaded again as it was before the last upload is that version on both', async () => {
    const upload = (i: number, token: string) => admin(i, 'POST', '/auth-files?name=beta-undo.json', { type: 'beta', access_token: token, expiry: '2099-01-01T00:00:00Z' })
    const token = (i: number) => {
      const path = join(join(instances()[i]!.dir, 'auths'), 'beta-undo.json')
      return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')).access_token : undefined
    }
    expect((await upload(0, 'first')).status).toBe(200)
    await expect.poll(() => token(1), { timeout: 5000 }).toBe('first')
    expect((await upload(0, 'second')).status).toBe(200)
    await expect.poll(() => token(1), { timeout: 5000 }).toBe('second')
    expect((await upload(0, 'first')).status).toBe(200)
    // Past the 2 s poll of credential files, so every instance has looked.
    await new Promise(resolve => setTimeout(resolve, 3000))
    expect([token(0), token(1)]).toEqual(['first', 'first'])
  })
})
