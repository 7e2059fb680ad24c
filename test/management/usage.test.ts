import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { runCli } from '../helpers/spawn-cli.ts'
import { startManagedProxy, managementSecret, baseYaml } from './helpers.ts'

let upstream: MockUpstream
beforeAll(async () => { upstream = await startMockOpenAI() })
afterAll(() => upstream.close())

const yamlFor = (extra = '') => baseYaml.replace('http://127.0.0.1:9/v1', `${upstream.url}/v1`) + `usage-statistics-enabled: true\n${extra}`
const chat = (url: string, model = 'fast') => fetch(`${url}/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client-one', 'content-type': 'application/json' },
  body: JSON.stringify({ model, messages: [{ role: 'user', content: 'count me' }] }),
})
const management = (url: string, path: string, init: RequestInit = {}) => fetch(`${url}/v0/management${path}`, { ...init, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' } })

describe('usage statistics', () => {
  it('records every request with tokens, per model, credential, client key, hour and day; no secrets', async () => {
    const managed = await startManagedProxy(yamlFor())
    try {
      await chat(managed.proxy.url)
      await chat(managed.proxy.url)
      await chat(managed.proxy.url, 'missing-model')
      const { usage } = await (await management(managed.proxy.url, '/usage')).json()
      expect(usage).toMatchObject({ requests: 3, success: 2, failure: 1 })
      expect(usage.input_tokens).toBeGreaterThan(0)
      expect(usage.by_model.fast.requests).toBe(2)
      expect(usage.by_credential['compat:mock:0.0'].requests).toBe(2)
      // A plain key is counted by its id, never by a mask every short key shares.
      expect(Object.keys(usage.by_client_key)).toEqual([`key-${createHash('sha256').update('client-one').digest('hex').slice(0, 10)}`])
      expect(Object.values(usage.by_day)[0]).toMatchObject({ requests: 3 })
      const exported = await (await management(managed.proxy.url, '/usage/export')).json()
      expect(exported.records).toHaveLength(3)
      expect(JSON.stringify(exported)).not.toContain('client-one')
      expect(JSON.stringify(exported)).not.toContain('up-1')

      // import into another proxy twice: counted once
      const other = await startManagedProxy(yamlFor())
      try {
        const first = await (await management(other.proxy.url, '/usage/import', { method: 'POST', body: JSON.stringify(exported) })).json()
        const second = await (await management(other.proxy.url, '/usage/import', { method: 'POST', body: JSON.stringify(exported) })).json()
        expect(first).toMatchObject({ added: 3, skipped: 0 })
        expect(second).toMatchObject({ added: 0, skipped: 3 })
        expect((await (await management(other.proxy.url, '/usage')).json()).usage.requests).toBe(3)
        expect((await management(other.proxy.url, '/usage/import', { method: 'POST', body: '{"nope":1}' })).status).toBe(400)
      } finally {
        await other.close()
      }
    } finally {
      await managed.close()
    }
  })

  it('survives a restart of the server process (fs storage)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-usage-'))
    try {
      writeFileSync(join(dir, 'config.yaml'), yamlFor())
      writeFileSync(join(dir, 'proxy.config.mjs'), "export default { config: './config.yaml', storage: { driver: 'fs', base: './state' } }\n")
      const args = ['start', '--project', join(dir, 'proxy.config.mjs'), '--port', '0']
      const first = runCli(args, dir)
      const url = await first.url
      expect((await chat(url)).status).toBe(200)
      expect((await chat(url)).status).toBe(200)
      expect(await first.kill('SIGTERM')).toBe(0)
      const second = runCli(args, dir)
      try {
        const again = await second.url
        expect((await chat(again)).status).toBe(200)
        const { usage } = await (await management(again, '/usage')).json()
        expect(usage.requests).toBe(3)
      } finally {
        await second.kill('SIGTERM')
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
