import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { gatewayClient, localStdioServer, serverUp } from './servers.ts'

/**
 * `mcp.keepalive-seconds`: a quiet event stream of `/mcp` (a call's answer, a GET stream, the legacy SSE
 * stream, a 2026-07-28 call the client accepts a stream for) carries an SSE comment at that pace, so
 * Node clients (which drop a body silent for 300 s) and proxies keep it; the SDK clients still read
 * their results. 0 turns it off.
 */
let proxy: TestProxy
const key = 'alive-key'
const local = localStdioServer
const config = (seconds: number) => ({ 'api-keys': [key], mcp: { 'keepalive-seconds': seconds }, 'mcp-servers': [local] })
const modern = '2026-07-28'

beforeAll(async () => {
  proxy = await startTestProxy(config(0.25))
  await serverUp(proxy, 'local')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

const sleep = (id: number, ms: number, meta?: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'local__sleep', arguments: { ms }, ...meta && { _meta: meta } } })
const envelope = { 'io.modelcontextprotocol/protocolVersion': modern, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} }
const send = (method: string, headers: Record<string, string>, body?: unknown, signal?: AbortSignal) => fetch(`${proxy.url}/mcp`, {
  method,
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: body === undefined ? undefined : JSON.stringify(body),
  signal,
})
const comments = (text: string) => (text.match(/^: keep-?alive$/gm) ?? []).length

/** What a stream sent within `ms`, then closed. */
async function firstBytes(response: Response, ms: number): Promise<string> {
  const reader = response.body!.getReader()
  let text = ''
  const end = Date.now() + ms
  while (Date.now() < end) {
    const next = await Promise.race([reader.read(), new Promise<'late'>(resolve => setTimeout(() => resolve('late'), end - Date.now()))])
    if (next === 'late' || next.done) break
    text += Buffer.from(next.value).toString()
  }
  await reader.cancel().catch(() => {})
  return text
}

async function openSession(): Promise<string> {
  const answer = await send('POST', {}, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
  await answer.text()
  return answer.headers.get('mcp-session-id')!
}

describe('keep-alive comments on quiet /mcp streams', () => {
  it('a 2025 call\'s answer stream and a session\'s GET stream carry them while quiet', async () => {
    const session = await openSession()
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }
    const [call, get] = await Promise.all([
      send('POST', headers, sleep(1, 1500)).then(response => response.text()),
      send('GET', { ...headers, accept: 'text/event-stream' }).then(response => firstBytes(response, 1200)),
    ])
    expect(comments(call)).toBeGreaterThanOrEqual(3)
    expect(call).toMatch(/^: open\n\n(: keepalive\n\n)+event: message\ndata: .*"slept 1500"/)
    expect(comments(get)).toBeGreaterThanOrEqual(2)
  })

  it('a 2026-07-28 subscriptions/listen stream carries them', async () => {
    const listen = await send('POST', { 'mcp-protocol-version': modern, 'mcp-method': 'subscriptions/listen' },
      { jsonrpc: '2.0', id: 9, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: envelope } })
    expect([listen.status, listen.headers.get('content-type')]).toEqual([200, 'text/event-stream'])
    expect(comments(await firstBytes(listen, 1200))).toBeGreaterThanOrEqual(2)
  })

  it('the legacy SSE stream carries them', async () => {
    const stream = await send('GET', { accept: 'text/event-stream' })
    expect(comments(await firstBytes(stream, 1200))).toBeGreaterThanOrEqual(2)
  })

  it('a quiet 2026-07-28 call becomes an event stream with them when the client accepts one; JSON stays JSON', async () => {
    const headers = { 'mcp-protocol-version': modern, 'mcp-method': 'tools/call', 'mcp-name': 'local__sleep' }
    const streamed = await send('POST', headers, sleep(2, 1500, envelope))
    expect([streamed.status, streamed.headers.get('content-type')]).toEqual([200, 'text/event-stream'])
    const text = await streamed.text()
    expect(comments(text)).toBeGreaterThanOrEqual(3)
    const event = /^data: (.*)$/m.exec(text)![1]
    expect(JSON.parse(event)).toMatchObject({ id: 2, result: { content: [{ text: 'slept 1500' }] } })
    // A quick answer stays the one JSON body it was.
    const quick = await send('POST', headers, sleep(3, 10, envelope))
    expect(quick.headers.get('content-type')).toBe('application/json')
    expect(await quick.json()).toMatchObject({ id: 3, result: { content: [{ text: 'slept 10' }] } })
    // A client that accepts only JSON cannot be sent anything before the answer.
    const json = await send('POST', { ...headers, accept: 'application/json' }, sleep(4, 800, envelope))
    expect(json.headers.get('content-type')).toBe('application/json')
    expect(await json.json()).toMatchObject({ id: 4, result: { content: [{ text: 'slept 800' }] } })
  })

  it('the SDK clients of both eras read their results through them', async () => {
    const client = await gatewayClient(proxy.url, key)
    const old = await client.callTool({ name: 'local__sleep', arguments: { ms: 1200 } }) as { content: Array<{ text: string }> }
    expect(old.content[0].text).toBe('slept 1200')
    await client.close()
    const next = new ModernClient({ name: 'alive-test', version: '1' }, { versionNegotiation: { mode: { pin: modern } } })
    await next.connect(new ModernTransport(new URL(`${proxy.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
    const result = await next.callTool({ name: 'local__sleep', arguments: { ms: 1200 } }) as { content: Array<{ text: string }> }
    expect(result.content[0].text).toBe('slept 1200')
    await next.close()
  })

  it('0 turns them off, live', async () => {
    await proxy.proxy.kernel.applyConfig(validateConfig({ 'auth-dir': '/nonexistent-auth-dir', ...config(0) }))
    const session = await openSession()
    const call = await send('POST', { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, sleep(5, 1000))
    expect(comments(await call.text())).toBe(0)
    const quiet = await send('POST', { 'mcp-protocol-version': modern, 'mcp-method': 'tools/call', 'mcp-name': 'local__sleep' }, sleep(6, 1000, envelope))
    expect(quiet.headers.get('content-type')).toBe('application/json')
    await quiet.text()
  })
})
