import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { gatewayClient, referenceServers, until } from './servers.ts'
import type { ToolCallRecord } from '../../plugins/mcp/gateway.ts'

/**
 * `/mcp` for the stateless revision (2026-07-28): the SDK 2 client, negotiating (`auto`, as Claude Code
 * probes) and pinned to the revision, then the wire by hand. 2025 sessions keep working beside it.
 */
let proxy: TestProxy
let dir: string
const records: ToolCallRecord[] = []
const modern = '2026-07-28'

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-modern-'))
  writeFileSync(join(dir, 'notes.txt'), 'hello from the gateway\n')
  proxy = await startTestProxy({
    'api-keys': ['gateway-key'],
    'client-keys': [{ key: 'no-fs-key', name: 'no-fs' }],
    mcp: { access: { 'no-fs': { 'deny-tools': ['fs__*'] }, '*': {} } },
    'mcp-servers': referenceServers(dir),
  })
  await until(() => [...proxy.proxy.kernel.services.mcpGateway!.servers.values()].every(server => server.state === 'up'))
  proxy.proxy.kernel.services.mcpToolCall!.push(record => records.push(record))
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function modernClient(mode: 'auto' | { pin: string }, key = 'gateway-key'): Promise<Client> {
  const client = new Client({ name: 'modern-test', version: '1' }, { versionNegotiation: { mode } })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
  return client
}

const envelope = (extra: Record<string, unknown> = {}) => ({
  _meta: { 'io.modelcontextprotocol/protocolVersion': modern, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {}, ...extra },
})

/** One JSON-RPC POST as a modern client writes it; `headers` replace the usual ones. */
async function post(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}, key = 'gateway-key') {
  const response = await fetch(`${proxy.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': modern, 'mcp-method': method, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, ...envelope() } }),
  })
  const text = await response.text()
  const data = text.startsWith('{') ? JSON.parse(text) : JSON.parse(/^data: (.*)$/m.exec(text.split('\n\n').filter(Boolean).at(-1)!)![1]!)
  return { status: response.status, type: response.headers.get('content-type'), session: response.headers.get('mcp-session-id'), body: data }
}

describe('/mcp, revision 2026-07-28', () => {
  for (const mode of ['auto', { pin: modern }] as const) {
    it(`serves the SDK 2 client (${typeof mode === 'string' ? mode : 'pinned'}) without a session: tools, progress, resources, prompts, completion`, async () => {
      const client = await modernClient(mode)
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(modern)
        expect(client.getDiscoverResult()?.supportedVersions).toContain(modern)
        const { tools } = await client.listTools()
        expect(tools.map(tool => tool.name)).toEqual(expect.arrayContaining(['everything__echo', 'fs__read_text_file', 'memory__read_graph']))
        const file = await client.callTool({ name: 'fs__read_text_file', arguments: { path: join(dir, 'notes.txt') } })
        expect(JSON.stringify(file.content)).toContain('hello from the gateway')
        const progress: number[] = []
        const long = await client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 3 } }, { onprogress: notice => progress.push(notice.progress) })
        expect(long.isError).toBeFalsy()
        expect(progress.length).toBeGreaterThanOrEqual(2)
        const { resources } = await client.listResources()
        const first = resources.find(resource => resource.uri.startsWith('everything+'))!
        expect((await client.readResource({ uri: first.uri })).contents[0]!.uri).toBe(first.uri)
        const { prompts } = await client.listPrompts()
        expect(prompts.some(prompt => prompt.name.startsWith('everything__'))).toBe(true)
        const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'everything__completable-prompt' }, argument: { name: 'department', value: 'En' } })
        expect(completed.completion.values).toContain('Engineering')
      } finally {
        await client.close()
      }
    })
  }

  it('counts and records a call as on a 2025 session: the same record, under the caller\'s key name', async () => {
    const client = await modernClient({ pin: modern }, 'no-fs-key')
    const before = records.length
    try {
      await client.callTool({ name: 'everything__echo', arguments: { message: 'counted' } })
      const denied = await client.callTool({ name: 'fs__read_text_file', arguments: { path: join(dir, 'notes.txt') } }).catch((error: Error) => error)
      expect(String(denied instanceof Error ? denied.message : JSON.stringify(denied))).toMatch(/not allowed|unknown tool|denied/i)
    } finally {
      await client.close()
    }
    const echo = records.slice(before).find(record => record.tool === 'echo')!
    expect(echo).toMatchObject({ server: 'everything', keyId: 'no-fs', outcome: 'ok' })
  })

  it('stops a call when the client closes its response: the revision\'s cancellation', async () => {
    const client = await modernClient({ pin: modern })
    const before = records.length
    const abort = new AbortController()
    const started = Date.now()
    try {
      const call = client.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 8, steps: 8 } }, { signal: abort.signal, onprogress: () => {} })
      setTimeout(() => abort.abort('enough'), 500)
      await expect(call).rejects.toThrow()
      await until(() => records.slice(before).some(record => record.tool === 'trigger-long-running-operation'), 5000)
    } finally {
      await client.close()
    }
    expect(records.slice(before).find(record => record.tool === 'trigger-long-running-operation')!.outcome).toBe('error')
    expect(Date.now() - started).toBeLessThan(6000)
  })

  it('answers server/discover, and each request on its own: no session id, results marked complete', async () => {
    const discover = await post('server/discover')
    expect(discover.status).toBe(200)
    expect(discover.session).toBeNull()
    expect(discover.body.result).toMatchObject({ resultType: 'complete', supportedVersions: expect.arrayContaining([modern]), capabilities: { tools: { listChanged: true } } })
    const call = await post('tools/call', { name: 'everything__echo', arguments: { message: 'raw' } }, { 'mcp-name': 'everything__echo' })
    expect(call.status, JSON.stringify(call.body)).toBe(200)
    expect(call.body.result.resultType).toBe('complete')
    expect(JSON.stringify(call.body.result.content)).toContain('raw')
  })

  it('refuses what the revision refuses, in its own error codes, and the server keeps serving', async () => {
    const unsupported = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer gateway-key', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: envelope({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }) }),
    })
    expect(unsupported.status).toBe(400)
    const refused = await unsupported.json() as { error: { code: number; data: { supported: string[] } } }
    expect(refused.error.code).toBe(-32022)
    expect(refused.error.data.supported).toContain(modern)
    // The header names another method than the body: HeaderMismatch.
    expect((await post('tools/list', {}, { 'mcp-method': 'prompts/list' })).body.error.code).toBe(-32020)
    // tools/call without Mcp-Name.
    expect((await post('tools/call', { name: 'everything__echo', arguments: { message: 'x' } })).body.error.code).toBe(-32020)
    const unknown = await post('tools/frobnicate')
    expect([unknown.status, unknown.body.error.code]).toEqual([404, -32601])
    const unauthorized = await post('tools/list', {}, {}, 'wrong-key')
    expect(unauthorized.status).toBe(401)
    expect((await post('tools/list')).body.result.tools.length).toBeGreaterThan(0)
  })

  it('tells a subscriptions/listen stream when a server goes, and a 2025 session beside it still works', async () => {
    const client = await modernClient({ pin: modern })
    const legacy = await gatewayClient(proxy.url, 'gateway-key')
    try {
      let changed = 0
      client.setNotificationHandler('notifications/tools/list_changed', () => { changed++ })
      await client.listen({ toolsListChanged: true })
      const kernel = proxy.proxy.kernel
      const servers = (kernel.config['mcp-servers'] as Array<{ name: string }>).filter(server => server.name !== 'memory')
      await kernel.applyConfig({ ...kernel.config, 'mcp-servers': servers } as never)
      await until(() => changed > 0, 10_000)
      expect((await client.listTools()).tools.some(tool => tool.name.startsWith('memory__'))).toBe(false)
      expect((await legacy.listTools()).tools.some(tool => tool.name === 'everything__echo')).toBe(true)
    } finally {
      await client.close()
      await legacy.close()
    }
  })
})
