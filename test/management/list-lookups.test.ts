import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import bcrypt from 'bcryptjs'
import { startManagedProxy, managementSecret, type ManagedProxy } from './helpers.ts'

/**
 * PATCH and DELETE of one list entry find it in the file at their turn in the write queue. They once
 * found its index in the running config when the request came in: two DELETEs at once (a team cleaning
 * up keys) removed the first key and then the one after the second (the index had moved), and the
 * second key, meant to be revoked, kept working. So did a DELETE right after a hand edit of the list.
 */
const yaml = `host: 127.0.0.1
auth-dir: /nonexistent-auth-dir
remote-management: { secret-key: '${bcrypt.hashSync(managementSecret, 4)}' }
api-keys:
  - k-a
  - k-b # kept comment
  - k-c
  - k-d
compat-provider:
${['p1', 'p2', 'p3', 'p4'].map(name => `  - { name: ${name}, base-url: "http://127.0.0.1:9/v1", api-key-entries: [{ api-key: u-${name} }], models: [{ name: m-${name} }] }`).join('\n')}
`

let managed: ManagedProxy
beforeEach(async () => { managed = await startManagedProxy(yaml) })
afterEach(() => managed.close())

const call = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))
const names = () => managed.yaml()['compat-provider'].map((entry: { name: string }) => entry.name)

describe('list entries found at their turn', () => {
  it('concurrent DELETEs by value remove exactly the keys named', async () => {
    const answers = await Promise.all(['k-a', 'k-b'].map(key => call('DELETE', `/api-keys?value=${key}`)))
    expect(answers.map(answer => answer.status)).toEqual([200, 200])
    expect(managed.yaml()['api-keys']).toEqual(['k-c', 'k-d'])
    expect(managed.proxy.proxy.kernel.config['api-keys']).toEqual(['k-c', 'k-d'])
  })

  it('concurrent DELETEs and PATCHes by name change exactly the entries named', async () => {
    const answers = await Promise.all([
      call('DELETE', '/compat-provider?name=p1'),
      call('DELETE', '/compat-provider?name=p2'),
      call('PATCH', '/compat-provider', { name: 'p3', value: { prefix: 'three' } }),
    ])
    expect(answers.map(answer => answer.status)).toEqual([200, 200, 200])
    expect(names()).toEqual(['p3', 'p4'])
    expect(managed.yaml()['compat-provider'][0].prefix).toBe('three')
  })

  it('concurrent PATCHes {old, new} replace exactly the keys named', async () => {
    const answers = await Promise.all([
      call('DELETE', '/api-keys?value=k-a'),
      call('PATCH', '/api-keys', { old: 'k-c', new: 'k-c2' }),
    ])
    expect(answers.map(answer => answer.status)).toEqual([200, 200])
    expect(managed.yaml()['api-keys']).toEqual(['k-b', 'k-c2', 'k-d'])
    expect(managed.text()).toContain('- k-b # kept comment')
  })

  it('a DELETE right after a hand edit of the list removes the key it names', async () => {
    writeFileSync(managed.path, managed.text().replace('  - k-a\n', '  - k-new\n  - k-a\n'))
    expect((await call('DELETE', '/api-keys?value=k-b')).status).toBe(200)
    expect(managed.yaml()['api-keys']).toEqual(['k-new', 'k-a', 'k-c', 'k-d'])
  })

  it('an empty or malformed ?index= is a 404, not the first entry', async () => {
    for (const index of ['', ' ', '0x1', '1e0', '-0']) {
      expect(await call('DELETE', `/api-keys?index=${encodeURIComponent(index)}`)).toEqual({ status: 404, body: { error: 'item not found' } })
      expect(await call('DELETE', `/compat-provider?index=${encodeURIComponent(index)}`)).toEqual({ status: 404, body: { error: 'item not found' } })
    }
    expect(managed.yaml()['api-keys']).toEqual(['k-a', 'k-b', 'k-c', 'k-d'])
    expect(names()).toEqual(['p1', 'p2', 'p3', 'p4'])
  })
})
