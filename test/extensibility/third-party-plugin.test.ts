import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { createProxy } from '../../core/app.ts'
import { listen } from '../../core/runtime/server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { silentLogger } from '../helpers/proxy-server.ts'

/** A plugin file outside the repo that imports only the public entry, as a third-party author writes it. */
const pluginSource = `
import { defineProvider, defineProxyPlugin } from 'model-proxy'

const outside = defineProvider({
  family: 'outside',
  format: 'chat',
  credentials: config => (config['outside-keys'] ?? []).map((key, i) => ({
    id: 'outside:' + i, family: 'outside', provider: 'outside', apiKey: key, baseUrl: process.env.OUTSIDE_BASE_URL,
    headers: {}, prefix: '', priority: 0, models: [{ id: 'outside-model', upstream: 'mock-gpt' }], excludedModels: [], attributes: {},
  })),
  buildRequest: ({ credential, body }) => ({ url: credential.baseUrl + '/chat/completions', method: 'POST', headers: { 'content-type': 'application/json', 'x-outside-key': credential.apiKey }, json: body }),
})

export default defineProxyPlugin({
  name: 'outside',
  configSchema: {
    safeParse: (config) => Array.isArray(config['outside-keys'] ?? [])
      ? { success: true, data: { 'outside-keys': config['outside-keys'] ?? [] } }
      : { success: false, error: { issues: [{ path: ['outside-keys'], message: 'must be a list of keys' }] } },
  },
  setup(kernel) {
    kernel.registerProvider(outside)
    kernel.hooks.hook('before-upstream', ({ http }) => { http.headers['x-outside-hook'] = 'ran' })
  },
})
`

let upstream: MockUpstream
let dir: string
beforeAll(async () => {
  upstream = await startMockOpenAI()
  process.env.OUTSIDE_BASE_URL = `${upstream.url}/v1`
  dir = mkdtempSync(join(tmpdir(), 'outside-plugin-'))
  writeFileSync(join(dir, 'outside-plugin.mjs'), pluginSource)
})
afterAll(async () => {
  await upstream.close()
  rmSync(dir, { recursive: true, force: true })
  delete process.env.OUTSIDE_BASE_URL
})

describe('a third-party provider plugin', () => {
  it('loads by path from a folder outside the repo, owns a config key, and serves a request', async () => {
    const config = validateConfig({ 'api-keys': ['k'], 'outside-keys': ['outside-secret'], 'remote-management': { 'secret-key': 'admin' } })
    const proxy = await createProxy({ config, plugins: ['./outside-plugin.mjs'], cwd: dir, logger: silentLogger })
    const server = await listen(() => proxy, config, { port: 0, host: '127.0.0.1' })
    try {
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'outside-model', messages: [{ role: 'user', content: 'from outside' }] }),
      })
      expect(response.status).toBe(200)
      expect((await response.json()).choices[0].message.content).toContain('You said: from outside')
      const sent = upstream.requests.at(-1)!
      expect(sent.headers['x-outside-key']).toBe('outside-secret')
      expect(sent.headers['x-outside-hook']).toBe('ran')
      const shown = await (await fetch(`${server.url}/v0/management/config`, { headers: { authorization: 'Bearer admin' } })).json()
      expect(shown['outside-keys']).toEqual(['outside-secret'])
    } finally {
      await server.close()
      await proxy.close()
    }
  })

  it('its config key is validated with the rest: a bad value stops start-up naming the path', async () => {
    const config = validateConfig({ 'outside-keys': 'not-a-list' })
    await expect(createProxy({ config, plugins: ['./outside-plugin.mjs'], cwd: dir, logger: silentLogger })).rejects.toThrow('outside-keys: must be a list of keys')
  })
})
