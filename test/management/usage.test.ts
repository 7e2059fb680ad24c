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

describe('POST /usage/import: records that do not look like ours are skipped', () => {
  // A time past the Date range made the import a 500 and left the record in the store's queue: every
  // later /usage and /usage/series was a 500 too. Other fields of the wrong type were summed as strings
  // ("[object Object]" credentials) or lowered totals (negative tokens, latency -1e308).
  const good = { id: 'ok-1', time: Date.now(), clientKey: 'key-0123456789', model: 'm', inputTokens: 3, outputTokens: 4, cachedTokens: 0, reasoningTokens: 0, latencyMs: 5, status: 200, stream: false }
  const bad: Array<Record<string, unknown>> = [
    { time: 1e300 }, { time: -1e300 }, { time: 8.64e15 + 1 }, { time: -5 }, { inputTokens: -5 }, { outputTokens: -1 }, { cachedTokens: '5' }, { cachedTokens: {} },
    { reasoningTokens: null }, { cacheWriteTokens: '7' }, { latencyMs: 'slow' }, { latencyMs: -1e308 }, { cost: -1 }, { credential: {} }, { clientKey: { a: 1 } },
    { session: {} }, { family: ['x'] }, { provider: 7 }, { upstreamModel: 1 }, { servedModel: {} }, { keyName: 3 }, { stream: 'x' }, { estimated: 'yes' },
  ]

  it('each skipped, the good one added; /usage and /usage/series still answer, with the good one alone', async () => {
    const managed = await startManagedProxy(yamlFor())
    try {
      const records = [...bad.map((fields, i) => ({ ...good, id: `bad-${i}`, ...fields })), good]
      const answer = await management(managed.proxy.url, '/usage/import', { method: 'POST', body: JSON.stringify({ version: 1, records }) })
      expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { status: 'ok', added: 1, skipped: bad.length } })
      const usage = await management(managed.proxy.url, '/usage')
      expect(usage.status).toBe(200)
      expect((await usage.json()).usage).toMatchObject({ requests: 1, input_tokens: 3, output_tokens: 4, latency_ms_avg: 5 })
      expect((await management(managed.proxy.url, '/usage/series?range=24h')).status).toBe(200)
      // A record of an older export, without the fields added since, is still taken.
      const { cachedTokens: _c, reasoningTokens: _r, latencyMs: _l, stream: _s, clientKey: _k, ...old } = { ...good, id: 'old-1' }
      expect(await (await management(managed.proxy.url, '/usage/import', { method: 'POST', body: JSON.stringify({ records: [old] }) })).json()).toMatchObject({ added: 1, skipped: 0 })
    } finally {
      await managed.close()
    }
  })
})

describe('a model name of megabytes', () => {
  // Kept whole, each such request stored it in usage (20 requests of 1 MB: a 20 MB export) and the 404
  // echoed it back; a name is cut to 200 characters wherever the proxy keeps or repeats it.
  it('is cut in the usage record, the 404 and a /v1/models lookup; names of served models are untouched', async () => {
    const managed = await startManagedProxy(yamlFor())
    try {
      const huge = 'm'.repeat(1_000_000)
      const answer = await chat(managed.proxy.url, huge)
      expect(answer.status).toBe(404)
      const text = await answer.text()
      expect(text.length).toBeLessThan(1000)
      expect(JSON.parse(text).error.message).toContain(`${'m'.repeat(200)}…(1000000 characters)`)
      const lookup = await fetch(`${managed.proxy.url}/v1/models/${'m'.repeat(5000)}`, { headers: { authorization: 'Bearer client-one' } })
      expect(lookup.status).toBe(404)
      expect((await lookup.text()).length).toBeLessThan(1000)
      expect((await chat(managed.proxy.url)).status).toBe(200)
      const { records } = await (await management(managed.proxy.url, '/usage/export')).json()
      expect(records.map((record: { model: string }) => record.model)).toEqual([`${'m'.repeat(200)}…(1000000 characters)`, 'fast'])
    } finally {
      await managed.close()
    }
  })
})
