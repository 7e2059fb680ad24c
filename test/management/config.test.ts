import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, rmSync } from 'node:fs'
import { startManagedProxy, managementSecret, baseYaml, type ManagedProxy } from './helpers.ts'

let managed: ManagedProxy
beforeEach(async () => { managed = await startManagedProxy(baseYaml) })
afterEach(() => managed.close())

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method,
  headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json', ...headers },
  body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
})
const json = async (response: Response) => ({ status: response.status, body: await response.json() })

describe('configuration endpoints', () => {
  it('GET /config.yaml returns the raw file, comments kept', async () => {
    const response = await call('GET', '/config.yaml')
    expect(response.headers.get('content-type')).toContain('yaml')
    const text = await response.text()
    expect(text).toContain('# Operator notes: keep this comment')
    expect(text).toContain('# the first client')
  })

  it('PUT /config.yaml: invalid YAML and invalid config change nothing', async () => {
    const before = managed.text()
    expect(await json(await call('PUT', '/config.yaml', 'port: [1, 2', { 'content-type': 'application/yaml' }))).toMatchObject({ status: 400, body: { error: 'invalid_yaml', message: expect.any(String) } })
    expect(await json(await call('PUT', '/config.yaml', 'port: 70000\n', { 'content-type': 'application/yaml' }))).toEqual({ status: 400, body: { error: 'invalid_config', message: 'port: must be 1..65535' } })
    expect(managed.text()).toBe(before)
  })

  it('PUT /config.yaml: invalid YAML is refused with its line and column, without quoting the text (it may hold a secret)', async () => {
    const result = await json(await call('PUT', '/config.yaml', 'api-keys: [sk-never-quoted-0123456789\nremote-management: {secret-key: plain-secret-0123456789\n', { 'content-type': 'application/yaml' }))
    expect(result).toMatchObject({ status: 400, body: { error: 'invalid_yaml', message: expect.stringMatching(/line \d+, column \d+/) } })
    expect(JSON.stringify(result)).not.toMatch(/never-quoted|plain-secret/)
  })

  it('PUT /config.yaml: aliases that expand without bound are invalid_yaml (not a 500), nothing written', async () => {
    const before = managed.text()
    const laughs = ['x-a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]', ...'bcd'.split('').map((name, i) => `x-${name}: &${name} [${Array(10).fill(`*${'abc'[i]}`).join(', ')}]`)].join('\n')
    const result = await json(await call('PUT', '/config.yaml', `${before}\n${laughs}\n`, { 'content-type': 'application/yaml' }))
    expect(result).toMatchObject({ status: 400, body: { error: 'invalid_yaml', message: expect.stringContaining('alias') } })
    expect(managed.text()).toBe(before)
  })

  it('PUT /config.yaml that would shut out the operator writing it is refused, nothing written', async () => {
    // It was answered 200, then every call was a 404 (or, for a remote operator, a 403) until the file was edited by hand.
    const yaml = { 'content-type': 'application/yaml' }
    const before = managed.text()
    const noSecret = before.replace(/remote-management:\n(  .*\n)+/, '')
    expect(await json(await call('PUT', '/config.yaml', noSecret, yaml))).toMatchObject({ status: 400, body: { error: 'invalid_config', message: expect.stringContaining('remote-management.secret-key') } })
    expect(managed.text()).toBe(before)
    const open = before.replace('allow-remote: false', 'allow-remote: true')
    expect((await call('PUT', '/config.yaml', open, yaml)).status).toBe(200)
    const remote = { ...yaml, 'x-test-client-ip': '203.0.113.60' }
    const closing = managed.text().replace('allow-remote: true', 'allow-remote: false')
    expect(await json(await call('PUT', '/config.yaml', closing, remote))).toMatchObject({ status: 400, body: { error: 'invalid_config', message: expect.stringContaining('remote-management.allow-remote') } })
    expect((await call('GET', '/debug', undefined, remote)).status).toBe(200)
    // From the machine itself, closing remote access is an ordinary write.
    expect((await call('PUT', '/config.yaml', closing, yaml)).status).toBe(200)
  })

  it('PUT /config.yaml with If-Match (GET\'s ETag) is refused when the file changed since, nothing written', async () => {
    // An editor open for a while saved the whole file it had loaded: a key removed meanwhile came back.
    const yaml = { 'content-type': 'application/yaml' }
    const read = await call('GET', '/config.yaml')
    const version = read.headers.get('etag')!
    const loaded = await read.text()
    expect(version).toMatch(/^"[0-9a-f]{64}"$/)
    expect((await call('DELETE', '/api-keys?value=client-one')).status).toBe(200)
    const after = managed.text()
    const stale = loaded.replace('request-retry: 3', 'request-retry: 4')
    expect(await json(await call('PUT', '/config.yaml', stale, { ...yaml, 'if-match': version }))).toEqual({ status: 412, body: { error: 'config_changed', message: expect.stringContaining('changed since it was read') } })
    expect(managed.text()).toBe(after)
    // Read again: the version matches, the write goes through.
    const fresh = await call('GET', '/config.yaml')
    const text = (await fresh.text()).replace('request-retry: 3', 'request-retry: 4')
    expect((await call('PUT', '/config.yaml', text, { ...yaml, 'if-match': fresh.headers.get('etag')! })).status).toBe(200)
    expect(managed.proxy.proxy.kernel.config['request-retry']).toBe(4)
    expect(managed.proxy.proxy.kernel.config['api-keys']).toEqual([])
  })

  it('PUT /config.yaml and single-field writes check plugin-owned keys before writing', async () => {
    const before = managed.text()
    const bad = `${before}\nmetrics:\n  path: no-leading-slash\n`
    const result = await json(await call('PUT', '/config.yaml', bad, { 'content-type': 'application/yaml' }))
    expect(result).toMatchObject({ status: 400, body: { error: 'invalid_config', message: expect.stringContaining('metrics.path') } })
    expect(managed.text()).toBe(before)
  })

  it('PUT /config.yaml writes, applies live and reports what changed', async () => {
    const text = managed.text().replace('request-retry: 3', 'request-retry: 5 # raised').replace('client-one # the first client', 'client-two')
    const result = await json(await call('PUT', '/config.yaml', text, { 'content-type': 'application/yaml' }))
    expect(result).toEqual({ status: 200, body: { ok: true, changed: ['api-keys', 'request-retry'] } })
    expect(managed.text()).toContain('request-retry: 5 # raised')
    expect(managed.proxy.proxy.kernel.config['request-retry']).toBe(5)
    const models = (key: string) => fetch(`${managed.proxy.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
    expect((await models('client-two')).status).toBe(200)
    expect((await models('client-one')).status).toBe(401)
  })

  it.each([
    ['/debug', 'debug', true],
    ['/usage-statistics-enabled', 'usage-statistics-enabled', true],
    ['/logging-to-file', 'logging-to-file', true],
    ['/request-log', 'request-log', true],
    ['/proxy-url', 'proxy-url', 'socks5://127.0.0.1:1080'],
    ['/request-retry', 'request-retry', 7],
    ['/max-retry-interval', 'max-retry-interval', 10],
    ['/routing/strategy', 'strategy', 'fill-first'],
    ['/logs-max-total-size-mb', 'logs-max-total-size-mb', 100],
    ['/error-logs-max-files', 'error-logs-max-files', 3],
    ['/quota-exceeded/switch-project', 'switch-project', false],
    ['/quota-exceeded/switch-preview-model', 'switch-preview-model', false],
  ])('single field %s: GET, PUT {value}, persisted with comments', async (path, key, value) => {
    expect(Object.keys((await json(await call('GET', path))).body)).toEqual([key])
    expect(await json(await call('PUT', path, { value }))).toEqual({ status: 200, body: { status: 'ok' } })
    expect((await json(await call('GET', path))).body).toEqual({ [key]: value })
    expect(managed.text()).toContain('# Operator notes: keep this comment')
  })

  it('field errors: missing value -> invalid body; a value the schema refuses -> invalid_config', async () => {
    expect(await json(await call('PUT', '/debug', { nope: 1 }))).toEqual({ status: 400, body: { error: 'invalid body' } })
    expect(await json(await call('PUT', '/debug', 'not json'))).toEqual({ status: 400, body: { error: 'invalid body' } })
    expect(await json(await call('PUT', '/request-retry', { value: -1 }))).toMatchObject({ status: 400, body: { error: 'invalid_config' } })
    expect(await json(await call('PATCH', '/routing/strategy', { value: 'random' }))).toMatchObject({ status: 400, body: { error: 'invalid_config' } })
  })

  it('DELETE /proxy-url clears it', async () => {
    await call('PUT', '/proxy-url', { value: 'http://127.0.0.1:3128' })
    expect(await json(await call('DELETE', '/proxy-url'))).toEqual({ status: 200, body: { status: 'ok' } })
    expect((await json(await call('GET', '/proxy-url'))).body).toEqual({ 'proxy-url': '' })
  })

  it('a config file that cannot be written -> failed to save config, running config kept', async () => {
    // Replace the file by a directory: no user, root included, can write a file there.
    rmSync(managed.path)
    mkdirSync(managed.path)
    const result = await json(await call('PUT', '/debug', { value: true }))
    expect(result).toEqual({ status: 500, body: { error: 'failed to save config: EISDIR' } })
    expect(managed.proxy.proxy.kernel.config.debug).toBe(false)
    rmSync(managed.path, { recursive: true })
  })
})

describe('client API keys', () => {
  it('GET, PUT (array and {items}), PATCH (index and old/new), DELETE (index and value)', async () => {
    expect((await json(await call('GET', '/api-keys'))).body).toEqual({ 'api-keys': ['client-one'] })
    await call('PUT', '/api-keys', ['a', 'b'])
    await call('PUT', '/api-keys', { items: ['a', 'b', 'c'] })
    await call('PATCH', '/api-keys', { index: 0, value: 'A' })
    await call('PATCH', '/api-keys', { old: 'b', new: 'B' })
    expect((await json(await call('GET', '/api-keys'))).body).toEqual({ 'api-keys': ['A', 'B', 'c'] })
    await call('DELETE', '/api-keys?index=0')
    await call('DELETE', '/api-keys?value=c')
    expect(managed.yaml()['api-keys']).toEqual(['B'])
    expect(await json(await call('DELETE', '/api-keys?value=zzz'))).toEqual({ status: 404, body: { error: 'item not found' } })
    expect(await json(await call('PATCH', '/api-keys', { index: 9, value: 'x' }))).toEqual({ status: 404, body: { error: 'item not found' } })
    expect(await json(await call('PUT', '/api-keys', { nope: true }))).toEqual({ status: 400, body: { error: 'invalid body' } })
  })
})

describe('provider keys', () => {
  it.each(['alpha-api-key', 'beta-api-key', 'gamma-api-key', 'delta-api-key'])('%s: PUT, PATCH by index and match, DELETE by api-key and index', async (key) => {
    await call('PUT', `/${key}`, [{ 'api-key': 'k1' }, { 'api-key': 'k2', prefix: 'team' }])
    await call('PATCH', `/${key}`, { index: 0, value: { 'api-key': 'k1', priority: 5 } })
    await call('PATCH', `/${key}`, { match: 'k2', value: { 'base-url': 'https://example.test' } })
    const listed = (await json(await call('GET', `/${key}`))).body[key]
    expect(listed).toMatchObject([{ 'api-key': 'k1', priority: 5 }, { 'api-key': 'k2', prefix: 'team', 'base-url': 'https://example.test' }])
    await call('DELETE', `/${key}?api-key=k1`)
    await call('DELETE', `/${key}?index=0`)
    expect(managed.yaml()[key]).toEqual([])
    expect(await json(await call('PUT', `/${key}`, [{ 'api-key': '' }]))).toMatchObject({ status: 400, body: { error: 'invalid_config', message: expect.stringContaining(`${key}[0].api-key`) } })
  })

  it('compat-provider: PATCH by name and DELETE by name, live in the model list', async () => {
    await call('PATCH', '/compat-provider', { name: 'mock', value: { models: [{ name: 'mock-gpt', alias: 'renamed' }] } })
    const models = await (await fetch(`${managed.proxy.url}/v1/models`, { headers: { authorization: 'Bearer client-one' } })).json()
    expect(models.data.map((model: { id: string }) => model.id)).toEqual(['renamed'])
    expect(managed.text()).toContain('# the local mock')
    expect(await json(await call('DELETE', '/compat-provider?name=nope'))).toEqual({ status: 404, body: { error: 'item not found' } })
    await call('DELETE', '/compat-provider?name=mock')
    expect(managed.yaml()['compat-provider']).toEqual([])
  })
})

describe('credential states', () => {
  it('lists credentials with their state; block, unblock and reset a cooldown', async () => {
    const list = (await json(await call('GET', '/credentials'))).body.credentials
    expect(list).toEqual([expect.objectContaining({ id: 'compat:mock:0.0', state: 'ready', label: '****', models: ['fast'] })])
    expect(JSON.stringify(list)).not.toContain('up-1')
    await call('POST', '/credentials/block', { id: 'compat:mock:0.0', reason: 'maintenance' })
    expect((await json(await call('GET', '/credentials'))).body.credentials[0]).toMatchObject({ state: 'blocked', blocked: 'maintenance' })
    const refused = await fetch(`${managed.proxy.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer client-one', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'fast', messages: [{ role: 'user', content: 'x' }] }) })
    expect(refused.status).toBe(503)
    await call('POST', '/credentials/unblock', { id: 'compat:mock:0.0' })
    managed.proxy.proxy.kernel.services.routingState!.markQuota('compat:mock:0.0', 'mock-gpt', 600)
    expect((await json(await call('GET', '/credentials'))).body.credentials[0]).toMatchObject({ state: 'cooldown', cooldowns: [expect.objectContaining({ model: 'mock-gpt', failures: 1 })] })
    await call('POST', '/credentials/reset-cooldown', { id: 'compat:mock:0.0' })
    expect((await json(await call('GET', '/credentials'))).body.credentials[0].state).toBe('ready')
    expect(await json(await call('POST', '/credentials/block', { id: 'nope' }))).toEqual({ status: 404, body: { error: 'credential not found' } })
  })
})
