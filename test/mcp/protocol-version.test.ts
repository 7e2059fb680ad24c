import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { gatewayClient, localStdioServer, serverUp } from './servers.ts'

/**
 * `MCP-Protocol-Version`: a value the gateway does not speak (malformed, too old, too new) is a 400 with
 * the supported revisions, on every method and with or without a session; no header keeps the spec's
 * default; the SDK clients of both eras, which send the negotiated revision, keep working.
 */
let proxy: TestProxy
const key = 'version-key'
const local = localStdioServer

beforeAll(async () => {
  proxy = await startTestProxy({ 'api-keys': [key], 'mcp-servers': [local] })
  await serverUp(proxy, 'local')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

const list = { jsonrpc: '2.0', id: 'list-1', method: 'tools/list', params: {} }
const send = (method: string, headers: Record<string, string>, body?: unknown) => fetch(`${proxy.url}/mcp`, {
  method,
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: body === undefined ? undefined : JSON.stringify(body),
})
async function openSession(): Promise<string> {
  const answer = await send('POST', {}, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
  await answer.text()
  return answer.headers.get('mcp-session-id')!
}

describe('MCP-Protocol-Version', () => {
  it('a malformed or unsupported value is a 400 naming the supported revisions, before and after initialize', async () => {
    const session = await openSession()
    for (const version of ['not-a-version', '2000-01-01', '2099-01-01', 'garbage', '2025-06-18x']) {
      for (const headers of [{}, { 'mcp-session-id': session }] as Array<Record<string, string>>) {
        const answer = await send('POST', { 'mcp-protocol-version': version, ...headers }, list)
        const body = await answer.json() as { id: unknown; error: { code: number; message: string; data: { supported: string[]; requested: string } } }
        expect({ version, status: answer.status, code: body.error.code, id: body.id }).toEqual({ version, status: 400, code: -32022, id: 'list-1' })
        expect(body.error.data).toEqual({ supported: expect.arrayContaining(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']), requested: version })
        expect(body.error.message).toContain('2025-11-25')
      }
    }
  })

  it('GET and DELETE are checked too: a refused DELETE leaves the session open', async () => {
    const session = await openSession()
    const get = await send('GET', { 'mcp-session-id': session, 'mcp-protocol-version': 'garbage', accept: 'text/event-stream' })
    expect([get.status, (await get.json() as { error: { code: number } }).error.code]).toEqual([400, -32022])
    const getLegacy = await send('GET', { 'mcp-protocol-version': '1999-12-31', accept: 'text/event-stream' })
    expect(getLegacy.status).toBe(400)
    await getLegacy.body?.cancel()
    const del = await send('DELETE', { 'mcp-session-id': session, 'mcp-protocol-version': 'garbage' })
    expect([del.status, (await del.json() as { error: { code: number } }).error.code]).toEqual([400, -32022])
    const after = await send('POST', { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, list)
    expect([after.status, await after.text()]).toEqual([200, expect.stringContaining('local__echo')])
  })

  it('no header: the session is served (the spec\'s default revision)', async () => {
    const session = await openSession()
    const answer = await send('POST', { 'mcp-session-id': session }, list)
    expect([answer.status, await answer.text()]).toEqual([200, expect.stringContaining('local__echo')])
  })

  it('the SDK clients of both eras send the revision they negotiated and are served', async () => {
    const client = await gatewayClient(proxy.url, key)
    expect((await client.callTool({ name: 'local__echo', arguments: { message: 'sdk 1' } }) as { content: Array<{ text: string }> }).content[0].text).toBe('sdk 1')
    await client.close()
    for (const mode of ['auto', { pin: '2026-07-28' }, 'legacy'] as const) {
      const modern = new ModernClient({ name: 'version-test', version: '1' }, { versionNegotiation: { mode } })
      await modern.connect(new ModernTransport(new URL(`${proxy.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
      const result = await modern.callTool({ name: 'local__echo', arguments: { message: 'sdk 2' } }) as { content: Array<{ text: string }> }
      expect({ mode, text: result.content[0].text }).toEqual({ mode, text: 'sdk 2' })
      await modern.close()
    }
  })
})
