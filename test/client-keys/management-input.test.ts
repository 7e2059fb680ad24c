import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'
import { hashClientKey } from '../../plugins/client-keys/key-hash.ts'

/**
 * `/client-keys` writes answer what they did: a key sent as its `sha256:` hash is stored as sent (the
 * client's plain key then works), a key that is no string is a 400 (not a generated key), and a PATCH
 * field the route does not take (`key`, a misspelt `rpn`, a `rotate` that is no boolean) is a 400 that
 * changes nothing, never an "ok" that ignored it.
 */
let managed: ManagedProxy
let url: string
beforeAll(async () => {
  managed = await startManagedProxy(`host: 127.0.0.1
remote-management: { secret-key: ${managementSecret} }
api-keys: [plain-api-key]
compat-provider:
  - { name: mock, base-url: 'http://127.0.0.1:9/v1', api-key-entries: [{ api-key: up }], models: [{ name: mock-gpt, alias: m }] }
client-keys:
  - { key: team-plain-key, name: team, rpm: 5 }
`)
  url = managed.proxy.url
})
afterAll(async () => { await managed?.close() })

const admin = (method: string, path: string, body?: unknown) => fetch(`${url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))
const models = (key: string) => fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } }).then(response => response.status)

describe('POST /client-keys: the key field', () => {
  it('a sha256 hash is stored as sent: the plain key it hashes works, and is never answered', async () => {
    const hash = hashClientKey('known-only-to-the-client')
    const created = await admin('POST', '/client-keys', { name: 'hashed', key: hash })
    expect(created).toEqual({ status: 200, body: { status: 'ok', name: 'hashed' } })
    expect(managed.yaml()['client-keys'].find((entry: { name: string }) => entry.name === 'hashed').key).toBe(hash)
    expect(await models('known-only-to-the-client')).toBe(200)
    // The same key again, as its hash or in plain text: in use.
    expect((await admin('POST', '/client-keys', { name: 'again', key: hash })).status).toBe(409)
    expect((await admin('POST', '/client-keys', { name: 'again', key: 'known-only-to-the-client' })).status).toBe(409)
    expect((await admin('POST', '/client-keys', { name: 'again', key: hashClientKey('team-plain-key') })).status).toBe(409)
    expect((await admin('POST', '/client-keys', { name: 'again', key: hashClientKey('plain-api-key') })).status).toBe(409)
  })

  it('a key that is no non-empty string is a 400, and nothing is created', async () => {
    for (const key of [12345, '', null, true, ['k'], { k: 1 }]) {
      const answer = await admin('POST', '/client-keys', { name: 'typed', key })
      expect(answer.status, JSON.stringify(key)).toBe(400)
      expect(answer.body.message).toMatch(/^key: /)
    }
    expect((await admin('GET', '/client-keys/typed')).status).toBe(404)
  })
})

describe('PATCH /client-keys/{name}: only the fields it takes', () => {
  it('an unknown field, key, a name or rotate of the wrong type: 400, the entry unchanged', async () => {
    const before = managed.text()
    for (const body of [{ rpn: 10 }, { key: 'new-key' }, { rpm: 7, colour: 'red' }, { name: 5 }, { rotate: 'yes' }, { rotate: 1 }, { name: 'team', rotate: 'yes' }]) {
      const answer = await admin('PATCH', '/client-keys/team', body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.message).toBeTruthy()
    }
    expect(managed.text()).toBe(before)
    expect(await models('team-plain-key')).toBe(200)
    expect(await models('new-key')).toBe(401)
  })

  it('the fields it takes still apply', async () => {
    expect((await admin('PATCH', '/client-keys/team', { rpm: 9, rotate: false, name: 'team' })).status).toBe(200)
    expect((await admin('GET', '/client-keys/team')).body.rpm).toBe(9)
  })
})

describe('/client-keys: names the API can address afterwards', () => {
  // A lone surrogate has no UTF-8 form, so no URL names the key: it could be neither read, changed nor
  // removed but by rewriting the file. Control characters collided in metrics ("x\0y" shown as "x y").
  const unaddressable = ['\ud800', 'a\udfffb', 'x\u0000y', 'new\nline', 'tab\there', 'del\u007f']

  it('POST with a name holding a control character or a lone surrogate: 400, nothing created', async () => {
    const before = managed.text()
    for (const name of unaddressable) {
      const answer = await admin('POST', '/client-keys', { name })
      expect(answer.status, JSON.stringify(name)).toBe(400)
      expect(answer.body.message).toMatch(/^name: /)
    }
    expect(managed.text()).toBe(before)
  })

  it('PATCH renaming to such a name: 400, the entry unchanged; other names (spaces, slashes, unicode) still work', async () => {
    const before = managed.text()
    for (const name of unaddressable) expect((await admin('PATCH', '/client-keys/team', { name })).status, JSON.stringify(name)).toBe(400)
    expect(managed.text()).toBe(before)
    const created = await admin('POST', '/client-keys', { name: 'team ünï/2 "q"' })
    expect(created.status).toBe(200)
    expect((await admin('GET', `/client-keys/${encodeURIComponent('team ünï/2 "q"')}`)).status).toBe(200)
    expect((await admin('DELETE', `/client-keys/${encodeURIComponent('team ünï/2 "q"')}`)).status).toBe(200)
  })
})

describe('a named key sending a model name of megabytes', () => {
  it('its 403 and its recent requests quote the name cut to 200 characters', async () => {
    const { body } = await admin('POST', '/client-keys', { name: 'narrowed', models: ['m'] })
    const huge = 'z'.repeat(1_000_000)
    const refused = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${body.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: huge, messages: [{ role: 'user', content: 'x' }] }) })
    expect(refused.status).toBe(403)
    const text = await refused.text()
    expect(text.length).toBeLessThan(1000)
    expect(text).toContain(`${'z'.repeat(200)}…(1000000 characters)`)
    const counted = await fetch(`${url}/v1/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': body.key, 'content-type': 'application/json' }, body: JSON.stringify({ model: huge, messages: [{ role: 'user', content: 'x' }] }) })
    expect(counted.status).toBe(403)
    expect((await counted.text()).length).toBeLessThan(1000)
    const { recent } = (await admin('GET', '/client-keys/narrowed')).body
    expect(recent.map((request: { model: string }) => request.model)).toEqual([`${'z'.repeat(200)}…(1000000 characters)`])
  })
})
