import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { echo, startPartnerMock, startPartnerProxy, readChunk, type LoggedProxy, type PartnerMock } from './helpers.ts'
import { startConnectProxy, type ForwardProxy } from '../helpers/forward-proxies.ts'

let partner: PartnerMock
let proxy: LoggedProxy
const clientA = 'client-a-key'
const clientB = 'client-b-key'

beforeAll(async () => {
  partner = await startPartnerMock()
  proxy = await startPartnerProxy({
    'api-keys': [clientA, clientB],
    partner: {
      'upstream-url': partner.url,
      'upstream-api-key': 'partner-default-key',
      'upstream-api-keys': [{ 'upstream-api-key': 'partner-key-for-a', 'api-keys': [clientA] }],
    },
  })
})
afterAll(async () => {
  await proxy.close()
  await partner.close()
})
beforeEach(() => {
  partner.received.length = 0
  partner.handler = (_req, res, record) => echo(res, record)
  partner.onFirstChunk = undefined
})

const prefixed = [
  ['GET', '/api/auth/session'], ['POST', '/api/user/settings'], ['PUT', '/api/internal/x/y'], ['PATCH', '/api/meta/m'],
  ['DELETE', '/api/threads/T-1'], ['POST', '/api/telemetry'], ['POST', '/api/otel/v1/traces'], ['POST', '/api/tab/complete'],
  ['GET', '/threads'], ['GET', '/threads/T-2'], ['GET', '/docs'], ['GET', '/docs/guide/start'],
  ['GET', '/settings'], ['POST', '/settings/profile'], ['GET', '/auth'], ['GET', '/auth/cli-login'],
] as const

describe('partner proxied routes', () => {
  it.each(prefixed)('%s %s goes to the partner upstream with method, query and body', async (method, path) => {
    const body = method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify({ sent: path })
    const response = await fetch(`${proxy.url}${path}?a=1&b=two`, { method, headers: { authorization: `Bearer ${clientB}`, 'content-type': 'application/json' }, body })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-partner-echo')).toBe('yes')
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(await response.json()).toEqual({ method, url: `${path}?a=1&b=two`, body: body ?? '' })
    expect(partner.received).toHaveLength(1)
    expect(partner.received[0]!.headers.authorization).toBe('Bearer partner-default-key')
  })

  it('HEAD is passed through without a body', async () => {
    const response = await fetch(`${proxy.url}/docs/page`, { method: 'HEAD', headers: { authorization: `Bearer ${clientB}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-partner-echo')).toBe('yes')
    expect(partner.received.map(r => [r.method, r.url])).toEqual([['HEAD', '/docs/page']])
  })

  it('passes the upstream status and error body through', async () => {
    partner.handler = (_req, res) => { res.writeHead(418, { 'content-type': 'text/plain' }); res.end('short and stout') }
    const response = await fetch(`${proxy.url}/api/user/teapot`, { headers: { 'x-api-key': clientA } })
    expect(response.status).toBe(418)
    expect(await response.text()).toBe('short and stout')
  })

  it("replaces the client's key with the partner key for that client (rule 18)", async () => {
    await fetch(`${proxy.url}/api/user/a`, { headers: { authorization: `Bearer ${clientA}` } })
    await fetch(`${proxy.url}/api/user/b`, { headers: { 'x-api-key': clientB } })
    await fetch(`${proxy.url}/api/user/c?key=${clientA}&keep=1`)
    await fetch(`${proxy.url}/api/user/d`, { headers: { 'x-goog-api-key': clientB } })
    const [a, b, c, d] = partner.received
    expect(a!.headers.authorization).toBe('Bearer partner-key-for-a')
    expect(a!.headers['x-api-key']).toBe('partner-key-for-a')
    expect(b!.headers.authorization).toBe('Bearer partner-default-key')
    expect(b!.headers['x-api-key']).toBe('partner-default-key')
    // ?key= authenticated client A: it does not travel on, the rest of the query does.
    expect(c!.url).toBe('/api/user/c?keep=1')
    expect(c!.headers.authorization).toBe('Bearer partner-key-for-a')
    expect(d!.headers['x-goog-api-key']).toBeUndefined()
    expect(d!.headers.authorization).toBe('Bearer partner-default-key')
    for (const record of partner.received) expect(JSON.stringify(record.headers)).not.toMatch(/client-[ab]-key/)
  })

  it('drops hop-by-hop headers and the ones the Connection header names', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}/api/meta/hop`, {
        method: 'GET',
        headers: { authorization: `Bearer ${clientB}`, connection: 'keep-alive, x-drop-me', 'x-drop-me': '1', 'x-keep-me': '2', 'proxy-authorization': 'Basic c2VjcmV0', te: 'trailers' },
      }, (res) => { res.resume(); res.on('end', resolve) })
      req.on('error', reject)
      req.end()
    })
    const headers = partner.received[0]!.headers
    expect(headers['x-keep-me']).toBe('2')
    expect(headers['x-drop-me']).toBeUndefined()
    expect(headers['proxy-authorization']).toBeUndefined()
    expect(headers.te).toBeUndefined()
  })

  it('streams the answer back as it arrives (SSE is not buffered)', async () => {
    let release!: () => void
    const gate = new Promise<void>(resolve => { release = resolve })
    partner.handler = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      res.write('data: {"n":1}\n\n')
      await gate
      res.end('data: {"n":2}\n\n')
    }
    const response = await fetch(`${proxy.url}/api/threads/T-9/events`, { headers: { authorization: `Bearer ${clientB}` } })
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    const reader = response.body!.getReader()
    // The second event is only written after the client holds the first one.
    expect(await readChunk(reader)).toBe('data: {"n":1}\n\n')
    release()
    let rest = ''
    for (let chunk = await readChunk(reader); chunk; chunk = await readChunk(reader)) rest += chunk
    expect(rest).toBe('data: {"n":2}\n\n')
  })

  it('a client that leaves mid-stream closes the partner upstream connection', async () => {
    let closed!: () => void
    const upstreamClosed = new Promise<void>(resolve => { closed = resolve })
    partner.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {"n":1}\n\n')
      res.on('close', () => { if (!res.writableFinished) closed() })
    }
    const abort = new AbortController()
    const response = await fetch(`${proxy.url}/api/threads/T-10/events`, { headers: { authorization: `Bearer ${clientB}` }, signal: abort.signal })
    expect(await readChunk(response.body!.getReader())).toBe('data: {"n":1}\n\n')
    abort.abort()
    await upstreamClosed
  })

  it('streams the request body through (the partner sees the first chunk before the client sends the last)', async () => {
    const seen: string[] = []
    const text = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}/api/telemetry/batch`, { method: 'POST', headers: { authorization: `Bearer ${clientB}`, 'content-type': 'text/plain' } }, (res) => {
        let body = ''
        res.on('data', chunk => { body += chunk })
        res.on('end', () => resolve(body))
      })
      req.on('error', reject)
      // Only once the partner upstream holds the first chunk does the client send the rest.
      partner.onFirstChunk = (chunk) => {
        seen.push(chunk)
        req.end('second-part')
      }
      req.write('first-part;')
    })
    expect(seen).toEqual(['first-part;'])
    expect(JSON.parse(text).body).toBe('first-part;second-part')
  })

  it('answers 401 without a valid client key and sends nothing upstream', async () => {
    const none = await fetch(`${proxy.url}/api/user/me`)
    const wrong = await fetch(`${proxy.url}/threads`, { headers: { authorization: 'Bearer not-a-client' } })
    expect(none.status).toBe(401)
    expect(wrong.status).toBe(401)
    expect((await wrong.json()).error.type).toBe('authentication_error')
    expect(partner.received).toHaveLength(0)
  })
})

describe('partner proxied routes: access and failures', () => {
  it('restrict-management-to-localhost: 403 for a non-loopback client, loopback passes; provider routes are not restricted', async () => {
    const local = await startPartnerProxy({ 'api-keys': [clientA], partner: { 'upstream-url': partner.url, 'restrict-management-to-localhost': true } })
    try {
      const remote = await fetch(`${local.url}/api/user/me`, { headers: { authorization: `Bearer ${clientA}`, 'x-test-client-ip': '203.0.113.7' } })
      expect(remote.status).toBe(403)
      expect((await remote.json()).error.message).toMatch(/restricted to localhost/)
      expect(partner.received).toHaveLength(0)
      for (const address of ['127.0.0.1', '::1']) {
        const ok = await fetch(`${local.url}/api/user/me`, { headers: { authorization: `Bearer ${clientA}`, 'x-test-client-ip': address } })
        expect(ok.status).toBe(200)
      }
      const alias = await fetch(`${local.url}/api/provider/compat/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${clientA}`, 'x-test-client-ip': '203.0.113.7' }, body: JSON.stringify({ model: 'nowhere', messages: [] }) })
      expect(alias.status).toBe(200)
      expect(partner.received.map(r => r.url)).toEqual(['/api/user/me', '/api/user/me', '/api/provider/compat/v1/chat/completions'])
    } finally {
      await local.close()
    }
    // Without the option a remote client with a key is served.
    const remote = await fetch(`${proxy.url}/api/user/me`, { headers: { authorization: `Bearer ${clientA}`, 'x-test-client-ip': '203.0.113.7' } })
    expect(remote.status).toBe(200)
  })

  it('503 when no partner upstream is configured, 502 when it is unreachable (no key in the message)', async () => {
    const bare = await startPartnerProxy({ 'api-keys': [clientA] })
    const dead = await startPartnerProxy({ 'api-keys': [clientA], partner: { 'upstream-url': 'http://127.0.0.1:9', 'upstream-api-key': 'partner-secret-9' } })
    try {
      const unset = await fetch(`${bare.url}/api/user/me`, { headers: { authorization: `Bearer ${clientA}` } })
      expect(unset.status).toBe(503)
      expect((await unset.json()).error.code).toBe('partner_not_configured')
      const down = await fetch(`${dead.url}/api/user/me`, { headers: { authorization: `Bearer ${clientA}` } })
      expect(down.status).toBe(502)
      const text = await down.text()
      expect(text).toMatch(/partner upstream request failed/)
      expect(text).not.toContain('partner-secret-9')
    } finally {
      await Promise.all([bare.close(), dead.close()])
    }
  })

  it('an upstream-url that is not http(s) is a 503 and a warning at start', async () => {
    const odd = await startPartnerProxy({ 'api-keys': [clientA], partner: { 'upstream-url': 'ftp://partner.example' } })
    try {
      const response = await fetch(`${odd.url}/api/user/me`, { headers: { authorization: `Bearer ${clientA}` } })
      expect(response.status).toBe(503)
      expect((await response.json()).error.message).toBe('partner.upstream-url must be an http(s) URL')
      expect(odd.lines).toContain('partner.upstream-url must be an http(s) URL: partner routes will answer 503')
    } finally {
      await odd.close()
    }
  })

  it('a streamed body over max-request-body-mb is refused with 413', async () => {
    const small = await startPartnerProxy({ 'api-keys': [clientA], 'max-request-body-mb': 1, partner: { 'upstream-url': partner.url } })
    try {
      const declared = await fetch(`${small.url}/api/telemetry`, { method: 'POST', headers: { authorization: `Bearer ${clientA}` }, body: 'x'.repeat(1_100_000) })
      expect(declared.status).toBe(413)
      expect((await declared.json()).error.code).toBe('request_too_large')
      const chunk = new TextEncoder().encode('y'.repeat(64 * 1024))
      let sent = 0
      const body = new ReadableStream<Uint8Array>({ pull(controller) { if (sent++ < 20) controller.enqueue(chunk); else controller.close() } })
      const streamed = await fetch(`${small.url}/api/telemetry`, { method: 'POST', headers: { authorization: `Bearer ${clientA}` }, body, duplex: 'half' } as RequestInit)
      expect(streamed.status).toBe(413)
    } finally {
      await small.close()
    }
  })

  it('goes through the outbound proxy (proxy-url) like every upstream call', async () => {
    let forward: ForwardProxy | undefined
    let via: LoggedProxy | undefined
    try {
      forward = await startConnectProxy()
      via = await startPartnerProxy({ 'api-keys': [clientA], 'proxy-url': forward.url, partner: { 'upstream-url': partner.url } })
      const response = await fetch(`${via.url}/api/user/via-proxy`, { headers: { authorization: `Bearer ${clientA}` } })
      expect(response.status).toBe(200)
      expect(forward.connections).toContain(partner.url.replace('http://', ''))
      expect(partner.received.at(-1)!.url).toBe('/api/user/via-proxy')
    } finally {
      await via?.close()
      await forward?.close()
    }
  })

  it('never hands the client the partner key, when the partner quotes it in its answer or a header', async () => {
    // The key cut between two chunks, and URL-encoded in a header.
    partner.handler = async (_req, res, record) => {
      const key = String(record.headers.authorization).replace('Bearer ', '')
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': `Bearer error="invalid_token", key="${encodeURIComponent(key)}"` })
      res.write(`bad key ${key.slice(0, 9)}`)
      await new Promise(resolve => setTimeout(resolve, 20))
      res.end(`${key.slice(9)} (${key})`)
    }
    const response = await fetch(`${proxy.url}/api/user/me`, { headers: { authorization: `Bearer ${clientA}` } })
    const text = `${[...response.headers].join('\n')}\n${await response.text()}`
    expect(response.status).toBe(401)
    expect(partner.received.at(-1)!.headers.authorization).toBe('Bearer partner-key-for-a')
    expect(text).toContain('bad key part...or-a')
    expect(text).not.toContain('partner-key-for-a')
    expect(text).not.toContain('key-for-a')
  })
})
