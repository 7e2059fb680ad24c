import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDocument } from 'yaml'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'

/**
 * A client key's PATCH is committed to the fleet after it is written here; another instance's change
 * committed first is merged in then (core/config/merge.ts). The answer must say what the merge left:
 * a rename onto a name the other instance took is not made (409), an edit of a key it deleted landed
 * nowhere (404), an edit of a key it renamed followed the key (200, its new name). The fleet is stood in
 * for by a sync that writes the merged file at the commit, so each case happens every time.
 */
let managed: ManagedProxy
/** What the other instance's change does to the file when this instance commits next. */
let otherInstance: ((text: string) => string) | undefined
/**
 * The file as the merge leaves it: these client keys, the rest as it is. Keys (and the management secret)
 * stay hashed: a plain one would be rewritten in the file by a write of its own, at any moment after.
 */
const hashed = (key: string) => `sha256:${createHash('sha256').update(key).digest('hex')}`
const merged = (...entries: string[]) => (text: string) => `${text.slice(0, text.indexOf('client-keys:'))}client-keys:\n${entries.map(entry => `  - ${entry}\n`).join('')}`

beforeAll(async () => {
  managed = await startManagedProxy(`host: 127.0.0.1
remote-management: { secret-key: ${managementSecret} }
client-keys:
  - { key: key-one, name: one }
`)
  managed.proxy.proxy.kernel.configFile!.sync = {
    async reconcile(madeOn) {
      if (madeOn === undefined || !otherInstance) return undefined
      writeFileSync(managed.path, otherInstance(readFileSync(managed.path, 'utf8')))
      otherInstance = undefined
      return 'fleet version 2 from the other instance'
    },
  }
})
afterAll(() => managed?.close())

const admin = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))
const names = async () => (await admin('GET', '/client-keys')).body['client-keys'].map((key: { name: string }) => key.name).sort()

describe('a client key PATCH answered after the fleet merge', () => {
  it('a rename onto a name another instance took at once: 409, nothing changed', async () => {
    const hash = `sha256:${'b'.repeat(64)}`
    // As the merge leaves it: their key of that name added, this rename (and the rest of the PATCH) not made.
    otherInstance = merged(`{ key: '${hashed('key-one')}', name: one }`, `{ key: '${hash}', name: two }`)
    const answer = await admin('PATCH', '/client-keys/one', { name: 'two', rpm: 5 })
    expect(answer.status).toBe(409)
    expect(answer.body.message).toContain('a client key named "two" exists')
    expect(await names()).toEqual(['one', 'two'])
    expect((await admin('GET', '/client-keys/one')).body.rpm).toBeUndefined()
  })

  it('a rename with a rotation onto a name another instance took at once: 409, the old key still works', async () => {
    const before = (await admin('GET', '/client-keys/one')).body.key_hash
    otherInstance = merged(`{ key: '${hashed('key-one')}', name: one }`, `{ key: 'sha256:${'c'.repeat(64)}', name: three }`)
    const answer = await admin('PATCH', '/client-keys/one', { name: 'three', rotate: true })
    expect(answer.status).toBe(409)
    expect(answer.body.key).toBeUndefined()
    expect((await admin('GET', '/client-keys/one')).body.key_hash).toBe(before)
  })

  it('an edit of a key another instance deleted at once: 404', async () => {
    expect((await admin('POST', '/client-keys', { name: 'short-lived' })).status).toBe(200)
    otherInstance = (text) => {
      const doc = parseDocument(text)
      doc.deleteIn(['client-keys', (doc.toJS()['client-keys'] as Array<{ name: string }>).findIndex(key => key.name === 'short-lived')])
      return doc.toString()
    }
    const answer = await admin('PATCH', '/client-keys/short-lived', { rpm: 5 })
    expect(answer.status).toBe(404)
    expect(await names()).not.toContain('short-lived')
  })

  it('an edit of a key another instance renamed at once: 200 with the name it has now', async () => {
    otherInstance = text => text.replace('name: one', 'name: uno')
    const answer = await admin('PATCH', '/client-keys/one', { rpm: 6 })
    expect(answer).toMatchObject({ status: 200, body: { name: 'uno' } })
    expect((await admin('GET', '/client-keys/uno')).body.rpm).toBe(6)
  })
})
