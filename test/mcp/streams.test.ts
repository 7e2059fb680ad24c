import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { validateConfig } from '../../core/config/validate.ts'
import { gatewayClient, until, stdioServerPath } from './servers.ts'

/**
 * The gateway's event streams: opened at once (their headers sent before any event), and a session with
 * several GET streams open hears each notice once, on its newest stream (a server sends each message on
 * one stream, never on every one).
 */
let proxy: TestProxy
const local = (disabled: string[]) => ({ name: 'local', command: process.execPath, args: [stdioServerPath], 'disabled-tools': disabled })
const config = (disabled: string[]) => ({ 'api-keys': ['stream-key'], 'mcp-servers': [local(disabled)] })

beforeAll(async () => {
  proxy = await startTestProxy(config([]))
  await until(() => proxy.proxy.kernel.services.mcpGateway!.servers.get('local')!.state === 'up')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

describe('event streams', () => {
  it('are answered at once, before their first event: a GET stream, and a POST whose call is still running', async () => {
    const client = await gatewayClient(proxy.url, 'stream-key')
    const session = (client.transport as { sessionId?: string }).sessionId!
    const headers = { authorization: 'Bearer stream-key', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }
    const stop = new AbortController()
    const within = <T>(promise: Promise<T>) => Promise.race([promise, new Promise<'late'>(resolve => setTimeout(() => resolve('late'), 1500))])
    const get = await within(fetch(`${proxy.url}/mcp`, { headers: { ...headers, accept: 'text/event-stream' }, signal: stop.signal }))
    expect(get === 'late' ? get : get.headers.get('content-type')).toBe('text/event-stream')
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'local__sleep', arguments: { ms: 3000 } } }
    const post = await within(fetch(`${proxy.url}/mcp`, { method: 'POST', headers: { ...headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, body: JSON.stringify(call), signal: stop.signal }))
    expect(post === 'late' ? post : post.status).toBe(200)
    // The opening is a comment: the answer is read as before.
    if (post !== 'late') expect(await post.text()).toMatch(/^: open\n\nevent: message\ndata: \{"result":\{"content":\[\{"type":"text","text":"slept 3000"\}\]/)
    stop.abort()
    await client.close()
  })

  it('a list change reaches the session once, on the stream it opened last', async () => {
    const client = await gatewayClient(proxy.url, 'stream-key')
    let heardByClient = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { heardByClient++ })
    await new Promise(resolve => setTimeout(resolve, 300)) // the client's own stream opens after initialize
    const session = (client.transport as { sessionId?: string }).sessionId!
    const headers = { authorization: 'Bearer stream-key', accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }
    const stop = new AbortController()
    const heard = [0, 0]
    for (const at of [0, 1]) {
      const answer = await fetch(`${proxy.url}/mcp`, { headers, signal: stop.signal })
      expect(answer.status).toBe(200)
      const reader = answer.body!.getReader()
      void (async () => {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) return
          heard[at] += (Buffer.from(value).toString().match(/list_changed/g) ?? []).length
        }
      })().catch(() => {})
    }
    await proxy.proxy.kernel.applyConfig(validateConfig({ 'auth-dir': '/nonexistent-auth-dir', ...config(['huge']) }))
    await until(() => heard[1] > 0, 5000)
    await new Promise(resolve => setTimeout(resolve, 300))
    expect({ heardByClient, heard }).toEqual({ heardByClient: 0, heard: [0, 1] })
    stop.abort()
    await client.close()
  })
})

describe('a burst of a server\'s list changes', () => {
  it('lists the server once or twice and tells each session as often, not once per notice', async () => {
    const client = await gatewayClient(proxy.url, 'stream-key')
    let heard = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => { heard++ })
    await new Promise(resolve => setTimeout(resolve, 300)) // the client's own stream opens after initialize
    const listed = async () => Number((await client.callTool({ name: 'local__listed', arguments: {} }) as { content: Array<{ text: string }> }).content[0].text)
    const before = await listed()
    await client.callTool({ name: 'local__storm', arguments: { count: 200 } })
    await until(() => heard > 0, 5000)
    await new Promise(resolve => setTimeout(resolve, 1000))
    expect(await listed() - before).toBeLessThanOrEqual(2)
    expect(heard).toBeLessThanOrEqual(2)
    await client.close()
  })
})

describe('DELETE of a session', () => {
  it('ends its GET streams and stops its running calls, and the session is gone', async () => {
    const client = await gatewayClient(proxy.url, 'stream-key')
    const session = (client.transport as { sessionId?: string }).sessionId!
    const headers = { authorization: 'Bearer stream-key', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }
    const get = await fetch(`${proxy.url}/mcp`, { headers: { ...headers, accept: 'text/event-stream' } })
    expect(get.status).toBe(200)
    const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'local__sleep', arguments: { ms: 20_000 } } }
    const post = await fetch(`${proxy.url}/mcp`, { method: 'POST', headers: { ...headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, body: JSON.stringify(call) })
    expect(post.status).toBe(200)
    const started = Date.now()
    const deleted = await fetch(`${proxy.url}/mcp`, { method: 'DELETE', headers })
    expect(deleted.status).toBe(200)
    const ended = (answer: Response) => Promise.race([
      answer.text().then(text => ({ text, ms: Date.now() - started })),
      new Promise<'open'>(resolve => setTimeout(() => resolve('open'), 5000)),
    ])
    const [stream, answer] = await Promise.all([ended(get), ended(post)])
    expect(stream).not.toBe('open')
    expect(answer).not.toBe('open')
    const after = await fetch(`${proxy.url}/mcp`, { method: 'POST', headers: { ...headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/list' }) })
    expect(after.status).toBe(404)
    await client.close().catch(() => {})
  }, 15_000)
})
