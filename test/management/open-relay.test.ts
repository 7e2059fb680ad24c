import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { startManagedProxy, managementSecret, baseYaml, type ManagedProxy } from './helpers.ts'

let upstream: MockUpstream
let second: MockUpstream
let outsider: MockUpstream
let managed: ManagedProxy
let authDir: string
beforeAll(async () => {
  upstream = await startMockUpstream(request => openaiMock(request))
  second = await startMockUpstream(request => openaiMock(request))
  // Not configured anywhere: the host an attacker would like the proxy to reach.
  outsider = await startMockUpstream(() => new Response('{"secret":"internal"}', { headers: { 'content-type': 'application/json' } }))
  authDir = mkdtempSync(join(tmpdir(), 'proxy-relay-auth-'))
  managed = await startManagedProxy(`${baseYaml.replace('http://127.0.0.1:9/v1', `${upstream.url}/v1`)}  - name: second
    base-url: ${second.url}/v1
    api-key-entries:
      - api-key: up-2
    models:
      - name: mock-gpt
auth-dir: ${authDir}
`)
})
afterAll(async () => {
  await managed.close()
  rmSync(authDir, { recursive: true, force: true })
  await Promise.all([upstream.close(), second.close(), outsider.close()])
})

const call = (method: string, path: string, body?: unknown, type = 'application/json') => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': type }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
})

describe('api-call: no open relay', () => {
  it('reaches a configured credential\'s host by url, with that credential\'s auth', async () => {
    const response = await call('POST', '/api-call', { credential: 'compat:mock:0.0', method: 'GET', url: `${upstream.url}/v1/models` })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 200, body: { object: 'list' } })
    expect(upstream.requests.at(-1)!.headers.authorization).toBe('Bearer up-1')
  })

  it('403 for a host no credential uses; nothing is sent there', async () => {
    const before = outsider.requests.length
    for (const body of [{ credential: 'compat:mock:0.0', url: `${outsider.url}/x` }, { url: `${outsider.url}/x` }, { url: 'http://169.254.169.254/latest/meta-data/' }]) {
      const response = await call('POST', '/api-call', { method: 'GET', ...body })
      expect(response.status).toBe(403)
      expect((await response.json()).error).toMatch(/^api-call only reaches the upstream host of a configured credential or of a built-in provider; .+ is neither$/)
    }
    expect(outsider.requests.length).toBe(before)
  })

  it('a credential\'s auth goes only to its own host; without a credential, a configured host gets a plain call', async () => {
    const refused = await call('POST', '/api-call', { credential: 'compat:mock:0.0', method: 'GET', url: `${second.url}/v1/models` })
    expect(refused.status).toBe(403)
    expect((await refused.json()).error).toBe(`credential compat:mock:0.0 is only sent to its own upstream host, not ${new URL(second.url).host}`)
    const plain = await call('POST', '/api-call', { method: 'GET', url: `${second.url}/v1/models` })
    expect(plain.status).toBe(200)
    expect(second.requests.at(-1)!.headers.authorization).toBeUndefined()
  })

  it.each([
    ['file:///etc/passwd', 'url must be an http(s) URL'],
    ['gopher://127.0.0.1:70/x', 'url must be an http(s) URL'],
    ['not a url', 'url must be an http(s) URL'],
  ])('400 for %s', async (url, error) => {
    const response = await call('POST', '/api-call', { url })
    expect(response.status).toBe(400)
    expect((await response.json()).error).toBe(error)
  })

  it('400 for credentials in the URL, even to a configured host', async () => {
    const target = new URL(`${upstream.url}/v1/models`)
    target.username = 'user'
    target.password = 'pass'
    const response = await call('POST', '/api-call', { method: 'GET', url: target.toString() })
    expect(response.status).toBe(400)
    expect((await response.json()).error).toBe('url must not contain credentials (user:pass@)')
  })

  it('400 for a body with both or neither of path and url, or a path without a credential', async () => {
    expect((await call('POST', '/api-call', { credential: 'compat:mock:0.0', path: '/models', url: `${upstream.url}/v1/models` })).status).toBe(400)
    expect((await call('POST', '/api-call', { credential: 'compat:mock:0.0' })).status).toBe(400)
    expect((await call('POST', '/api-call', { path: '/models' })).status).toBe(400)
  })
})

describe('base URLs and proxy URLs set through the management API', () => {
  it.each([
    ['PUT', '/compat-provider', [{ name: 'x', 'base-url': 'file:///etc/passwd' }], 'compat-provider[0].base-url: must be an http(s) URL'],
    ['PUT', '/compat-provider', [{ name: 'x', 'base-url': 'http://user:pass@127.0.0.1:1/v1' }], 'compat-provider[0].base-url: must not contain credentials (user:pass@)'],
    ['PUT', '/gamma-api-key', [{ 'api-key': 'k', 'base-url': 'gopher://127.0.0.1:70' }], 'gamma-api-key[0].base-url: must be an http(s) URL'],
    ['PUT', '/beta-api-key', [{ 'api-key': 'k', 'proxy-url': 'ftp://127.0.0.1:21' }], 'beta-api-key[0].proxy-url: must be socks5://, http:// or https:// [user:pass@]host:port'],
    ['PATCH', '/compat-provider', { name: 'mock', value: { 'base-url': 'ftp://127.0.0.1/v1' } }, 'compat-provider[0].base-url: must be an http(s) URL'],
  ])('%s %s refuses a bad URL (nothing written)', async (method, path, body, message) => {
    const before = managed.text()
    const response = await call(method, path, body)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'invalid_config', message })
    expect(managed.text()).toBe(before)
  })

  it('PUT /proxy-url and PUT /config.yaml refuse them too', async () => {
    const before = managed.text()
    expect((await call('PUT', '/proxy-url', { value: 'file:///tmp/x' })).status).toBe(400)
    const yaml = before.replace(`${upstream.url}/v1`, 'file:///etc/passwd')
    const put = await call('PUT', '/config.yaml', yaml, 'application/yaml')
    expect(put.status).toBe(400)
    expect((await put.json()).error).toBe('invalid_config')
    expect(managed.text()).toBe(before)
  })

  it('an uploaded credential file with a non-http(s) base_url is refused', async () => {
    const response = await call('POST', '/auth-files?name=beta-x.json', { type: 'beta', access_token: 'at', base_url: 'file:///etc/passwd' })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: 'invalid credential file', message: expect.stringContaining('base_url: must be an http(s) URL') })
  })
})
