import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMcpHandler, Server } from '@modelcontextprotocol/server'
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { gatewayClient, referenceServers, until } from './servers.ts'

/**
 * Log notices through the gateway: `logging/setLevel` of a 2025 session, the per-request `_meta` level
 * of the 2026-07-28 revision, in front of the reference server (stdio, 2025) and of a server of the
 * 2026-07-28 revision whose `chatty` tool logs at three levels.
 */
let proxy: TestProxy
let front: MockUpstream
let dir: string
const modern = '2026-07-28'

function chattyServer() {
  const server = new Server({ name: 'chatty-upstream', version: '1' }, { capabilities: { tools: {}, logging: {} } })
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'chatty', inputSchema: { type: 'object' as const } }] }))
  server.setRequestHandler('tools/call', async (_request, context) => {
    for (const level of ['debug', 'info', 'error'] as const) await context.mcpReq.log(level, `${level} step`, 'steps')
    return { content: [{ type: 'text' as const, text: 'done' }] }
  })
  return server
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-logging-'))
  const handler = createMcpHandler(() => chattyServer(), { legacy: 'reject' })
  front = await startMockUpstream(request => handler.fetch(request))
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'client-keys': [{ key: 'no-everything-key', name: 'no-everything' }],
    mcp: { access: { 'no-everything': { 'deny-servers': ['everything'] }, '*': {} } },
    'mcp-servers': [...referenceServers(dir), { name: 'modern', url: `${front.url}/mcp` }],
  })
  await until(() => [...proxy.proxy.kernel.services.mcpGateway!.servers.values()].every(server => server.state === 'up'))
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  await front?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A 2025 session that keeps every log notice it hears. */
async function listening(key = 'k'): Promise<{ client: Client; notices: LoggingMessageNotification['params'][] }> {
  const client = await gatewayClient(proxy.url, key)
  const notices: LoggingMessageNotification['params'][] = []
  client.setNotificationHandler(LoggingMessageNotificationSchema, notification => { notices.push(notification.params) })
  return { client, notices }
}

describe('log notices, 2025 sessions', () => {
  it('a session that set a level hears the notices of its call at that level and above, marked with the server; one that did not hears none', async () => {
    const quiet = await listening()
    const asking = await listening()
    try {
      expect(quiet.client.getServerCapabilities()?.logging).toEqual({})
      // fs and memory do not log: they are skipped, and the answer is still `{}`.
      expect(await asking.client.setLoggingLevel('info')).toEqual({})
      await asking.client.callTool({ name: 'modern__chatty', arguments: {} })
      await quiet.client.callTool({ name: 'modern__chatty', arguments: {} })
      // Only the called server's: the everything server may log its roots (asked of the gateway) meanwhile, at info.
      expect(asking.notices.filter(notice => notice.logger?.startsWith('modern__'))).toEqual([
        { level: 'info', data: 'info step', logger: 'modern__steps' },
        { level: 'error', data: 'error step', logger: 'modern__steps' },
      ])
      expect(quiet.notices).toEqual([])
    } finally {
      await quiet.client.close()
      await asking.client.close()
    }
  })

  it('the level reaches a server of the 2025 protocol over stdio; its notices reach the sessions that asked and may use it, between calls on the GET stream', async () => {
    const quiet = await listening()
    const asking = await listening()
    const denied = await listening('no-everything-key')
    try {
      expect(await asking.client.setLoggingLevel('debug')).toEqual({})
      expect(await denied.client.setLoggingLevel('debug')).toEqual({})
      // The reference server logs once at once, then every 5 s, at random levels, until toggled off:
      // the second notice comes while no request of the session runs.
      await asking.client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} })
      // (It also logs its roots, asked of the gateway, under its own logger.)
      const simulated = () => asking.notices.filter(notice => notice.logger === 'everything')
      await until(() => simulated().length >= 2, 12_000)
      await asking.client.callTool({ name: 'everything__toggle-simulated-logging', arguments: {} })
      expect(simulated()[1]).toMatchObject({ data: expect.stringMatching(/message/) })
      expect(quiet.notices).toEqual([])
      expect(denied.notices).toEqual([])
    } finally {
      for (const { client } of [quiet, asking, denied]) await client.close()
    }
  }, 30_000)
})

describe('log notices, legacy SSE transport', () => {
  it('a session on the legacy transport that set a level hears the notices of its call', async () => {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js')
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
    const legacy = new Client({ name: 'legacy-logging-test', version: '1' })
    const headers = { authorization: 'Bearer k' }
    await legacy.connect(new SSEClientTransport(new URL(`${proxy.url}/mcp/sse`), {
      requestInit: { headers },
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers as Record<string, string>, ...headers } }) },
    }))
    const notices: LoggingMessageNotification['params'][] = []
    legacy.setNotificationHandler(LoggingMessageNotificationSchema, notification => { notices.push(notification.params) })
    try {
      expect(await legacy.setLoggingLevel('error')).toEqual({})
      await legacy.callTool({ name: 'modern__chatty', arguments: {} })
      // Once: the request's notice and the stream's are the same stream here.
      await until(() => notices.length > 0, 5000)
      expect(notices).toEqual([{ level: 'error', data: 'error step', logger: 'modern__steps' }])
    } finally {
      await legacy.close()
    }
  })
})

describe('log notices, revision 2026-07-28', () => {
  const call = (meta: Record<string, unknown>) => fetch(`${proxy.url}/mcp`, {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': modern, 'mcp-method': 'tools/call', 'mcp-name': 'modern__chatty' },
    body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'tools/call',
      params: { name: 'modern__chatty', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': modern, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {}, ...meta } },
    }),
  })
  const messages = (text: string) => text.split('\n').filter(line => line.startsWith('data: ')).map(line => JSON.parse(line.slice(6)))

  it('a request that names a level in _meta hears the notices at that level in its answer, then the result; one that names none hears none', async () => {
    const response = await call({ 'io.modelcontextprotocol/logLevel': 'debug' })
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/)
    const sent = messages(await response.text())
    expect(sent.filter(message => message.method === 'notifications/message').map(message => message.params)).toEqual([
      { level: 'debug', data: 'debug step', logger: 'modern__steps' },
      { level: 'info', data: 'info step', logger: 'modern__steps' },
      { level: 'error', data: 'error step', logger: 'modern__steps' },
    ])
    expect(sent.at(-1).result.content).toEqual([{ type: 'text', text: 'done' }])
    const silent = await (await call({})).text()
    expect(silent).not.toContain('notifications/message')
    expect(silent).toContain('done')
  })
})
