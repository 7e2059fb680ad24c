import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startMockOpenAI, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { buildPanel } from '../../panel/build.mjs'

const secret = 'serve-test-secret'

describe('GET /management.html', () => {
  let on: TestProxy
  let off: TestProxy
  beforeAll(async () => {
    on = await startTestProxy({ 'remote-management': { 'secret-key': secret } })
    off = await startTestProxy({ 'remote-management': { 'secret-key': secret, 'disable-control-panel': true } })
  })
  afterAll(async () => {
    await on.close()
    await off.close()
  })

  it('serves one self-contained page that may contact nothing but the proxy', async () => {
    const response = await fetch(`${on.url}/management.html`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'")
    const html = await response.text()
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain('<div id="app"></div>')
    expect(html).not.toMatch(/<script[^>]+src=/i)
    expect(html).not.toMatch(/<link[^>]+href="(?!data:)/i)
    expect(html).not.toMatch(/@import|url\(\s*['"]?https?:/i)
    // The key travels in a header; the page never puts it in a URL.
    expect(html).toContain('x-management-key')
  })

  it('GET / sends a browser to the panel and tells a program where it is', async () => {
    const browser = await fetch(`${on.url}/`, { headers: { accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' })
    expect(browser.status).toBe(302)
    expect(browser.headers.get('location')).toBe('/management.html')
    expect(await (await fetch(`${on.url}/`)).json()).toMatchObject({ service: 'model-proxy', panel: '/management.html' })
    const withoutPanel = await (await fetch(`${off.url}/`, { headers: { accept: 'text/html' } })).json()
    expect(withoutPanel).toMatchObject({ service: 'model-proxy', models: '/v1/models' })
    expect(withoutPanel.panel).toBeUndefined()
  })

  it('answers 404 with remote-management.disable-control-panel', async () => {
    const response = await fetch(`${off.url}/management.html`)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'control panel disabled' })
    // The management API itself is unaffected.
    expect((await fetch(`${off.url}/v0/management/status`, { headers: { 'x-management-key': secret } })).status).toBe(200)
  })
})

describe('GET /v0/management/status', () => {
  let proxy: TestProxy
  let bare: TestProxy
  let mock: MockUpstream
  beforeAll(async () => {
    mock = await startMockOpenAI()
    proxy = await startTestProxy({
      'api-keys': ['client-k'],
      'remote-management': { 'secret-key': secret },
      'compat-provider': [{ name: 'm', 'base-url': `${mock.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models: [{ name: 'mock-gpt' }] }],
    })
    bare = await startTestProxy({})
  })
  afterAll(async () => {
    await proxy.close()
    await bare.close()
    await mock.close()
  })
  const status = (key?: string, target = proxy) => fetch(`${target.url}/v0/management/status`, { headers: key ? { authorization: `Bearer ${key}` } : {} })
  const chat = (model: string) => fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer client-k', 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }) })

  it('is under the management access rules', async () => {
    expect((await status()).status).toBe(401)
    expect(await (await status('wrong')).json()).toEqual({ error: 'invalid management key' })
    expect((await status(secret, bare)).status).toBe(404)
  })

  it('reports version, uptime, requests per minute, error rate and credentials by state', async () => {
    const before = await (await status(secret)).json()
    expect(before).toMatchObject({ 'requests-per-minute': 0, 'error-rate': 0, credentials: { total: 1, ready: 1, cooldown: 0, blocked: 0, disabled: 0 } })
    expect(before.version).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version)
    expect(before['uptime-seconds']).toBeGreaterThanOrEqual(0)
    expect((await chat('mock-gpt')).status).toBe(200)
    expect((await chat('mock-gpt')).status).toBe(200)
    expect((await chat('unknown-model')).status).toBe(404)
    const after = await (await status(secret)).json()
    // An unknown model is the client's mistake: counted apart, not as an error of the proxy.
    expect(after).toMatchObject({ 'requests-per-minute': 3, 'errors-per-minute': 0, 'client-mistakes-per-minute': 1, 'window-requests': 3, 'window-client-mistakes': 1 })
    expect(after['error-rate']).toBe(0)
    await fetch(`${proxy.url}/v0/management/credentials/block`, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: JSON.stringify({ id: 'compat:m:0.0' }) })
    expect((await (await status(secret)).json()).credentials).toMatchObject({ ready: 0, blocked: 1 })
  })
})

describe('panel/build.mjs', () => {
  it('writes one page with the script and the styles inlined', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'panel-build-'))
    try {
      const { path, bytes } = await buildPanel({ outFile: join(dir, 'management.html') })
      const html = readFileSync(path, 'utf8')
      expect(bytes).toBe(Buffer.byteLength(html))
      expect(html.match(/<script>/g)).toHaveLength(1)
      expect(html.match(/<style>/g)).toHaveLength(1)
      expect(html).toContain('.sidebar')
      expect(html).not.toMatch(/<\/script>[\s\S]*<\/script>/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
