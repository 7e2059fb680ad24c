import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { startManagedProxy, managementSecret, baseYaml, type ManagedProxy } from './helpers.ts'

let releases: MockUpstream
let upstream: MockUpstream
let managed: ManagedProxy
beforeAll(async () => {
  releases = await startMockUpstream(() => new Response(JSON.stringify([{ tag_name: 'v9.9.9' }, { tag_name: 'v9.9.8' }]), { headers: { 'content-type': 'application/json' } }))
  upstream = await startMockUpstream(request => openaiMock(request))
  managed = await startManagedProxy(baseYaml.replace('http://127.0.0.1:9/v1', `${upstream.url}/v1`) + `release-url: ${releases.url}/releases\n`)
})
afterAll(async () => {
  await managed.close()
  await Promise.all([releases.close(), upstream.close()])
})

const call = (method: string, path: string, body?: unknown) => fetch(`${managed.proxy.url}/v0/management${path}`, {
  method, headers: { authorization: `Bearer ${managementSecret}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
})

describe('latest-version', () => {
  it('reads the configured release listing', async () => {
    expect(await (await call('GET', '/latest-version')).json()).toEqual({ 'latest-version': 'v9.9.9' })
  })

  it('offline: a clear 502 error', async () => {
    const kernel = managed.proxy.proxy.kernel
    const saved = kernel.config
    await kernel.applyConfig({ ...saved, 'release-url': 'http://127.0.0.1:9/none' } as never)
    try {
      const response = await call('GET', '/latest-version')
      expect(response.status).toBe(502)
      expect((await response.json()).error).toMatch(/^could not fetch the latest version from http:\/\/127\.0\.0\.1:9\/none: /)
    } finally {
      await kernel.applyConfig(saved)
    }
  })
})

describe('api-call', () => {
  it('calls the credential\'s own upstream with its auth', async () => {
    const result = await (await call('POST', '/api-call', { credential: 'compat:mock:0.0', method: 'GET', path: '/models' })).json()
    expect(result).toMatchObject({ status: 200, body: { object: 'list' } })
    expect(upstream.requests.at(-1)!.headers.authorization).toBe('Bearer up-1')
  })

  it.each(['//evil.example/x', 'http://evil.example/', '/../../etc', '/x@evil.example', 'models'])('refuses %s: no open relay', async (path) => {
    const response = await call('POST', '/api-call', { credential: 'compat:mock:0.0', path })
    expect(response.status).toBe(400)
  })

  it('404 for an unknown credential, 400 for a malformed body', async () => {
    expect((await call('POST', '/api-call', { credential: 'nope', path: '/models' })).status).toBe(404)
    expect((await call('POST', '/api-call', { path: '/models' })).status).toBe(400)
  })
})
