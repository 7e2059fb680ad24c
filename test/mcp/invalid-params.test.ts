import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { localStdioServer, serverUp } from './servers.ts'

/** A request whose params do not fit its method is the client's -32602, in both protocol eras, not an internal error. */
let proxy: TestProxy
const local = localStdioServer

beforeAll(async () => {
  proxy = await startTestProxy({ 'api-keys': ['params-key'], 'mcp-servers': [local] })
  await serverUp(proxy, 'local')
}, 30_000)

afterAll(async () => {
  await proxy?.close()
})

const headers = { authorization: 'Bearer params-key', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
async function rpc(body: unknown, extra: Record<string, string> = {}): Promise<{ error?: { code: number; message: string }; result?: unknown }> {
  const text = await (await fetch(`${proxy.url}/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) })).text()
  return JSON.parse(text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)![1])
}

describe('params that do not fit the method', () => {
  it('a 2025 session: -32602 with what is wrong; a fitting request is served as before', async () => {
    const answer = await fetch(`${proxy.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'params-test', version: '1' } } }) })
    await answer.text()
    const session = { 'mcp-session-id': answer.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' }
    for (const [method, params] of [['tools/call', {}], ['tools/call', { name: 'local__echo', arguments: 'text' }], ['prompts/get', { name: 5 }], ['resources/read', {}], ['logging/setLevel', { level: 'loud' }]] as const) {
      const { error } = await rpc({ jsonrpc: '2.0', id: 2, method, params }, session)
      expect(error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602)
      expect(error?.message).toContain(`Invalid ${method} request: `)
    }
    expect((await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'local__echo', arguments: { message: 'fits' } } }, session)).result).toEqual({ content: [{ type: 'text', text: 'fits' }] })
    // A method whose params are optional, sent without them.
    expect((await rpc({ jsonrpc: '2.0', id: 5, method: 'tools/list' }, session)).result).toMatchObject({ tools: expect.arrayContaining([expect.objectContaining({ name: 'local__echo' })]) })
  })

  it('the 2026-07-28 revision answers the same', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'params-test', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} }
    const { error } = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { _meta: meta } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' })
    expect(error?.code).toBe(-32602)
    expect(error?.message).toMatch(/^Invalid tools\/call request: /)
  })
})
