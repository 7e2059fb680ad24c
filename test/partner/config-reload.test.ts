import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProxy, type RunningProxy } from '../../core/runtime/start.ts'
import { silentLogger } from '../helpers/proxy-server.ts'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { startManagedProxy, managementSecret, type ManagedProxy } from '../management/helpers.ts'
import { startPartnerMock, type PartnerMock } from './helpers.ts'

let first: PartnerMock
let second: PartnerMock
let compat: MockUpstream
beforeAll(async () => {
  ;[first, second, compat] = await Promise.all([startPartnerMock(), startPartnerMock(), startMockOpenAI()])
})
afterAll(async () => {
  await Promise.all([first.close(), second.close(), compat.close()])
})

const yamlFor = (partner: string) => `# partner integration under test: keep this comment
host: 127.0.0.1
api-keys: [client-1, client-2]
compat-provider:
  - name: local
    base-url: ${compat.url}/v1
    api-key-entries: [{ api-key: up-local }]
    models: [{ name: mock-gpt, alias: local-gpt }]
partner:
${partner}
`

const get = (base: string, path: string, key: string, ip = '127.0.0.1') => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}`, 'x-test-client-ip': ip } })
const chatVia = (base: string, model: string) => fetch(`${base}/api/provider/compat/v1/chat/completions`, {
  method: 'POST', headers: { authorization: 'Bearer client-1', 'content-type': 'application/json' },
  body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
})

describe('partner settings reload when the config file changes (rule 19)', () => {
  let dir: string
  let running: RunningProxy
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'proxy-partner-'))
    const plugin = fileURLToPath(new URL('./fake-address-plugin.ts', import.meta.url))
    writeFileSync(join(dir, 'proxy.config.ts'), `export default { config: './config.yaml', plugins: [${JSON.stringify(plugin)}], storage: { driver: 'memory' } }\n`)
    writeFileSync(join(dir, 'config.yaml'), yamlFor(`  upstream-url: ${first.url}\n  upstream-api-key: key-one\n`))
    running = await startProxy({ cwd: dir, port: 0, host: '127.0.0.1', logger: silentLogger })
  })
  afterAll(async () => {
    await running.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('upstream-url, upstream-api-key(s), model-mappings and restrict-management-to-localhost apply after an edit', async () => {
    expect((await get(running.url, '/api/user/me', 'client-1', '198.51.100.4')).status).toBe(200)
    expect(first.received.at(-1)!.headers.authorization).toBe('Bearer key-one')
    expect((await chatVia(running.url, 'partner-x')).status).toBe(200)
    expect(first.received.at(-1)!.url).toBe('/api/provider/compat/v1/chat/completions')

    writeFileSync(join(dir, 'config.yaml'), yamlFor([
      `  upstream-url: ${second.url}`,
      '  upstream-api-key: key-two',
      '  upstream-api-keys:',
      '    - upstream-api-key: key-for-client-1',
      '      api-keys: [client-1]',
      '  restrict-management-to-localhost: true',
      '  model-mappings:',
      '    - { from: partner-x, to: local-gpt }',
    ].join('\n')))
    // The watcher applies the file within a fraction of a second; wait for the new upstream to be used.
    const deadline = Date.now() + 10_000
    while (!second.received.length && Date.now() < deadline) {
      await get(running.url, '/api/user/poll', 'client-2')
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    expect(second.received.at(-1)!.headers.authorization).toBe('Bearer key-two')

    await get(running.url, '/api/user/me', 'client-1')
    expect(second.received.at(-1)!.headers.authorization).toBe('Bearer key-for-client-1')
    expect((await get(running.url, '/api/user/me', 'client-1', '198.51.100.4')).status).toBe(403)
    const before = compat.requests.length
    const mapped = await chatVia(running.url, 'partner-x')
    expect(mapped.status).toBe(200)
    expect((await mapped.json()).model).toBe('partner-x')
    expect(compat.requests.length).toBe(before + 1)
    expect(second.received.some(r => r.url.startsWith('/api/provider'))).toBe(false)
  })
})

describe('partner section through the management API', () => {
  let managed: ManagedProxy
  const auth = { authorization: `Bearer ${managementSecret}` }
  beforeAll(async () => {
    managed = await startManagedProxy(`# operator notes
api-keys: [client-1]
remote-management:
  secret-key: ${managementSecret}
partner:
  # the partner upstream
  upstream-url: ${first.url}
  model-mappings:
    - from: a
      to: b
`)
  })
  afterAll(async () => { await managed.close() })

  it('GET /config shows the partner section with its defaults', async () => {
    const config = await (await fetch(`${managed.proxy.url}/v0/management/config`, { headers: auth })).json()
    expect(config.partner).toEqual({
      'upstream-url': first.url, 'upstream-api-key': '', 'upstream-api-keys': [], 'restrict-management-to-localhost': false,
      'model-mappings': [{ from: 'a', to: 'b' }], 'force-model-mappings': false,
    })
  })

  it('PUT /config.yaml keeps the partner section and its comments, and applies it live', async () => {
    const yaml = readFileSync(managed.path, 'utf8')
      .replace(`upstream-url: ${first.url}`, `upstream-url: ${second.url}\n  upstream-api-key: key-put # set through management`)
      .replace('to: b', 'to: c')
    const put = await fetch(`${managed.proxy.url}/v0/management/config.yaml`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/yaml' }, body: yaml })
    expect(await put.json()).toEqual({ ok: true, changed: ['partner'] })
    const text = managed.text()
    expect(text).toContain('# the partner upstream')
    expect(text).toContain('upstream-api-key: key-put # set through management')
    const config = await (await fetch(`${managed.proxy.url}/v0/management/config`, { headers: auth })).json()
    expect(config.partner['model-mappings']).toEqual([{ from: 'a', to: 'c' }])
    const count = second.received.length
    expect((await get(managed.proxy.url, '/api/user/after-put', 'client-1')).status).toBe(200)
    expect(second.received.length).toBe(count + 1)
    expect(second.received.at(-1)!.headers.authorization).toBe('Bearer key-put')
  })

  it('PUT /config.yaml with a bad partner value is refused and nothing is written', async () => {
    const before = managed.text()
    const put = await fetch(`${managed.proxy.url}/v0/management/config.yaml`, {
      method: 'PUT', headers: { ...auth, 'content-type': 'application/yaml' },
      body: before.replace('model-mappings:', 'force-model-mappings: maybe\n  model-mappings:'),
    })
    expect(put.status).toBe(400)
    const body = await put.json()
    expect(body.error).toBe('invalid_config')
    expect(body.message).toContain('partner.force-model-mappings')
    expect(managed.text()).toBe(before)
  })
})
