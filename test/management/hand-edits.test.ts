import { writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { baseYaml, managementSecret, startManagedProxy, type ManagedProxy } from './helpers.ts'

/**
 * The operator edits the YAML by hand while the proxy runs. A file left as text or a list made every
 * management write a 500 (the YAML library threw on the edit); a file caught empty (an editor or `>`
 * truncates before it writes) was applied: every key, provider and the management secret dropped; and a
 * management write made on it wrote its one setting as the whole file, with the same effect.
 */

let managed: ManagedProxy
beforeEach(async () => { managed = await startManagedProxy(baseYaml) })
afterEach(() => managed.close())

const call = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
}).then(async response => ({ status: response.status, body: await response.json() as any }))

/** The file written as the operator's editor would, then seen by the watcher. */
async function handEdit(text: string) {
  writeFileSync(managed.path, text)
  await managed.proxy.proxy.kernel.configFile!.reload('disk')
}

describe('hand edits of the config file', () => {
  it.each(['just some text', '- a\n- b\n', '42', '~', '\u0000\u0001'])('left as %j: a management write is a 400 naming it, the file stays as left', async (text) => {
    await handEdit(text)
    const { status, body } = await call('PUT', '/request-retry', { value: 5 })
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'invalid_config' })
    expect(body.message).toMatch(/not a mapping|does not parse|holds no settings/)
    expect(managed.text()).toBe(text)
    expect(managed.proxy.proxy.kernel.config['request-retry']).toBe(3)
  })

  it.each(['', '\n\n', '# nothing here yet\n', '~'])('emptied (%j): the running config stays, the next content applies', async (text) => {
    await handEdit(text)
    expect(managed.proxy.proxy.kernel.config['api-keys']).toEqual(['client-one'])
    expect((await call('GET', '/request-retry')).body).toEqual({ 'request-retry': 3 })
    // A write made on it would be the whole config: every other setting gone.
    const { status, body } = await call('PUT', '/request-retry', { value: 5 })
    expect({ status, error: body.error }).toEqual({ status: 400, error: 'invalid_config' })
    expect(body.message).toContain('holds no settings')
    expect(managed.text()).toBe(text)
    expect(managed.proxy.proxy.kernel.config['api-keys']).toEqual(['client-one'])
    await handEdit(baseYaml.replace('request-retry: 3', 'request-retry: 4'))
    expect(managed.proxy.proxy.kernel.config['request-retry']).toBe(4)
    expect(managed.proxy.proxy.kernel.config['api-keys']).toEqual(['client-one'])
  })
})

describe('a proxy started on an empty file', () => {
  it('builds it through the API (MANAGEMENT_PASSWORD): an empty file it runs is no half-written one', async () => {
    process.env.MANAGEMENT_PASSWORD = 'from-env'
    const empty = await startManagedProxy('')
    try {
      const response = await fetch(`${empty.proxy.url}/v0/management/request-retry`, { method: 'PUT', headers: { authorization: 'Bearer from-env', 'content-type': 'application/json' }, body: '{"value":5}' })
      expect(response.status).toBe(200)
      expect(empty.yaml()).toEqual({ 'request-retry': 5 })
    } finally {
      delete process.env.MANAGEMENT_PASSWORD
      await empty.close()
    }
  })
})
