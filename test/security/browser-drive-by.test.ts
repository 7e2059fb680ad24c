import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import OpenAI from 'openai'
import type { Browser } from 'playwright-core'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { openaiMock } from '../../playground/mock-upstream/openai.ts'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { hasChromium, launch } from '../panel/harness.ts'
import { askEnvelope, openSocket } from '../helpers/ws-client.ts'

/**
 * Issue 18.4: with no `api-keys` the proxy serves loopback clients without a key. A web page the
 * operator visits runs on the same machine, so it must not be able to use that: cross-site browser
 * requests (Sec-Fetch-Site / Origin) and requests naming another host (DNS rebinding) are refused,
 * in the endpoint's own error format; curl and SDKs (which send neither header) keep working.
 */

let upstream: MockUpstream
let open: TestProxy
let keyed: TestProxy
const models = [{ name: 'mock-gpt', alias: 'm' }]
beforeAll(async () => {
  upstream = await startMockUpstream(openaiMock)
  const provider = { 'compat-provider': [{ name: 'mock', 'base-url': `${upstream.url}/v1`, 'api-key-entries': [{ 'api-key': 'up' }], models }] }
  open = await startTestProxy(provider)
  keyed = await startTestProxy({ 'api-keys': ['k'], ...provider })
})
afterAll(async () => {
  await open?.close()
  await keyed?.close()
  await upstream?.close()
})

const formats = [
  { name: 'chat', path: '/v1/chat/completions', body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, error: (body: any) => body.error.type === 'permission_error' },
  { name: 'messages', path: '/v1/messages', body: { model: 'm', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] }, error: (body: any) => body.type === 'error' && body.error.type === 'permission_error' },
  { name: 'generateContent', path: '/v1beta/models/m:generateContent', body: { contents: [{ parts: [{ text: 'hi' }] }] }, error: (body: any) => body.error.code === 403 && body.error.status === 'PERMISSION_DENIED' },
  { name: 'count_tokens', path: '/v1/messages/count_tokens', body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, error: (body: any) => body.type === 'error' && body.error.type === 'permission_error' },
]

const post = (proxy: TestProxy, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

describe('no api-keys, loopback: who is served', () => {
  it.each(formats)('$name: curl-like clients (no Origin, no Sec-Fetch-Site) are served', async ({ path, body }) => {
    expect((await post(open, path, body)).status).toBe(200)
  })

  it('the openai SDK is served', async () => {
    const client = new OpenAI({ baseURL: `${open.url}/v1`, apiKey: 'anything' })
    const answer = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'sdk' }] })
    expect(answer.choices[0]!.message.content).toContain('sdk')
  })

  it.each([
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1' }],
    ['Sec-Fetch-Site: none (typed in the address bar)', { 'sec-fetch-site': 'none' }],
    ['an Origin equal to the Host (older browsers, same origin)', { origin: 'ORIGIN' }],
  ])('%s is served', async (_name, headers: Record<string, string>) => {
    const own = open.url.replace(/\/$/, '')
    const sent = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value === 'ORIGIN' ? own : value]))
    expect((await post(open, formats[0]!.path, formats[0]!.body, sent)).status).toBe(200)
  })

  const refused: Array<[string, Record<string, string>]> = [
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['Sec-Fetch-Site: same-site (another port of localhost)', { 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000' }],
    ['an Origin of another site (no Sec-Fetch-Site)', { origin: 'https://evil.example' }],
    ['Origin: null (sandboxed frame, file://)', { origin: 'null' }],
    ['a key does not help a page: none is configured', { origin: 'https://evil.example', 'x-api-key': 'made-up' }],
  ]
  it.each(formats.flatMap(format => refused.map(([name, headers]) => ({ format, name, headers }))))('$format.name, $name: 403 in the format, upstream not called', async ({ format, headers }) => {
    const before = upstream.requests.length
    const response = await post(open, format.path, format.body, headers)
    expect(response.status).toBe(403)
    expect(format.error(await response.json())).toBe(true)
    expect(upstream.requests.length).toBe(before)
  })

  it('a page reaching the loopback socket through DNS rebinding (a Host of another name) is refused', async () => {
    // fetch() will not send another Host: node:http will, as the rebound browser does.
    const status = (host: string) => new Promise<number>((resolve, reject) => {
      const req = request(`${open.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'text/plain', host } }, (res) => { res.resume(); resolve(res.statusCode!) })
      req.on('error', reject)
      req.end(JSON.stringify(formats[0]!.body))
    })
    expect(await status('rebind.evil.example:8317')).toBe(403)
    expect(await status('localhost:8317')).toBe(200)
    expect(await status('[::1]:8317')).toBe(200)
  })

  it('a cross-site page cannot open /v1/responses, and its /v1/ws socket serves no model call', async () => {
    const ws = open.url.replace('http', 'ws')
    await expect(openSocket(`${ws}/v1/responses`, { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403')
    const socket = await openSocket(`${ws}/v1/ws`, { origin: 'https://evil.example' })
    try {
      const [reply] = await askEnvelope(socket, { id: 'x', path: '/v1/chat/completions', body: formats[0]!.body })
      expect(reply).toMatchObject({ id: 'x', type: 'error', status: 403 })
    } finally {
      socket.close()
    }
    const local = await openSocket(`${ws}/v1/ws`)
    try {
      expect((await askEnvelope(local, { id: 'y', path: '/v1/chat/completions', body: formats[0]!.body }))[0]).toMatchObject({ type: 'response', status: 200 })
    } finally {
      local.close()
    }
  })
})

describe('with api-keys, a browser with a valid key is served cross-origin (CORS as the spec has it)', () => {
  it('Origin of another site + valid key: 200', async () => {
    const response = await post(keyed, formats[0]!.path, formats[0]!.body, { origin: 'https://app.example', 'sec-fetch-site': 'cross-site', authorization: 'Bearer k' })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe.skipIf(!hasChromium)('a real browser page on another origin', () => {
  let browser: Browser
  let site: Server
  let siteUrl: string
  beforeAll(async () => {
    site = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>some site</title>') })
    await new Promise<void>(resolve => site.listen(0, '127.0.0.1', resolve))
    // Another port is another origin (and the same site): exactly a local dev server's page.
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`
    browser = await launch()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await new Promise(resolve => site?.close(resolve))
  })

  it('can neither call a model (simple or preflighted request) nor use /v1/ws', async () => {
    const page = await browser.newPage()
    await page.goto(siteUrl)
    const before = upstream.requests.length
    const result = await page.evaluate(async (proxy) => {
      const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'from a page' }] })
      const simple = await fetch(`${proxy}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body })
      const preflighted = await fetch(`${proxy}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'guess' }, body })
      const socketReply = await new Promise<string>((resolve) => {
        const socket = new WebSocket(`${proxy.replace('http', 'ws')}/v1/ws`)
        socket.onopen = () => socket.send(JSON.stringify({ id: 'p', path: '/v1/chat/completions', body: JSON.parse(body) }))
        socket.onmessage = event => { resolve(String(event.data)); socket.close() }
        socket.onerror = () => resolve('socket error')
      })
      return { simple: [simple.status, await simple.text()], preflighted: [preflighted.status, await preflighted.text()], socketReply }
    }, open.url)
    expect(result.simple[0], String(result.simple[1])).toBe(403)
    expect(result.preflighted[0], String(result.preflighted[1])).toBe(403)
    expect(String(result.simple[1])).not.toContain('from a page')
    expect(JSON.parse(result.socketReply)).toMatchObject({ id: 'p', type: 'error', status: 403 })
    expect(upstream.requests.length).toBe(before)
    await page.close()
  }, 60_000)
})
