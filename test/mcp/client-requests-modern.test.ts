import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { createMcpHandler, inputRequired, Server } from '@modelcontextprotocol/server'
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { startTestProxy, type TestProxy } from '../helpers/proxy-server.ts'
import { startMockUpstream, type MockUpstream } from '../helpers/mock-openai-server.ts'
import { referenceServers, until } from './servers.ts'
import { askingServer } from './asking-server.ts'

/**
 * Server-to-client requests for clients of the 2026-07-28 revision, which has no requests from server
 * to client: the call is answered `input_required`, and the client's retry carries the answers. The
 * client side is the SDK 2 client, whose driver answers with its handlers and retries by itself.
 */
let proxy: TestProxy
let front: MockUpstream
let modernFront: MockUpstream
let dir: string
const modern = '2026-07-28'

/** A server of the 2026-07-28 revision whose `confirm` tool asks its client by an input_required result. */
function confirmingServer() {
  const server = new Server({ name: 'confirming', version: '1' }, { capabilities: { tools: {} } })
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'confirm', inputSchema: { type: 'object' as const } }] }))
  server.setRequestHandler('tools/call', (_request, context) => {
    const answer = context.mcpReq.inputResponses?.ok
    if (!answer) return inputRequired({ inputRequests: { ok: inputRequired.elicit({ message: 'Deploy?', requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } } } }) } })
    return { content: [{ type: 'text' as const, text: JSON.stringify(answer) }] }
  })
  return server
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-mcp-client-requests-modern-'))
  front = await startMockUpstream(askingServer())
  const handler = createMcpHandler(() => confirmingServer(), { legacy: 'reject' })
  modernFront = await startMockUpstream(request => handler.fetch(request))
  proxy = await startTestProxy({
    'api-keys': ['k'],
    'mcp-servers': [referenceServers(dir)[0], { name: 'asking', url: `${front.url}/mcp`, 'timeout-seconds': 5 }, { name: 'confirming', url: `${modernFront.url}/mcp` }],
  })
  await until(() => [...proxy.proxy.kernel.services.mcpGateway!.servers.values()].every(server => server.state === 'up'))
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  await front?.close()
  await modernFront?.close()
  rmSync(dir, { recursive: true, force: true })
})

type Capabilities = { elicitation?: Record<string, never>; sampling?: Record<string, never>; roots?: Record<string, never> }

async function modernClient(capabilities: Capabilities, setup: (client: Client) => void = () => {}): Promise<Client> {
  const client = new Client({ name: 'modern-asker', version: '1' }, { capabilities, versionNegotiation: { mode: 'auto' } })
  setup(client)
  await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), { requestInit: { headers: { authorization: 'Bearer k' } } }))
  expect(client.getNegotiatedProtocolVersion()).toBe(modern)
  return client
}

const text = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]!.text)

/** A raw tools/call of `asking__ask` in the 2026-07-28 revision; the JSON-RPC answer. */
  const post = (params: Record<string, unknown>): Promise<any> => fetch(`${proxy.url}/mcp`, {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': modern, 'mcp-method': 'tools/call', 'mcp-name': 'asking__ask' },
    body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'tools/call',
      params: { name: 'asking__ask', arguments: { who: 'raw' }, ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': modern, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } },
    }),
  }).then(async response => {
    const body = await response.text()
    return JSON.parse(body.startsWith('{') ? body : body.split('\n').find(line => line.startsWith('data: {') && line.includes('"id":1'))!.slice(6))
  })
describe('server-to-client requests, revision 2026-07-28', () => {
  it('an elicitation of the reference server comes back as input_required; the client\'s retry carries the answer to the server', async () => {
    const asked: string[] = []
    const client = await modernClient({ elicitation: {} }, client => client.setRequestHandler('elicitation/create', request => {
      asked.push((request.params as { message: string }).message)
      return { action: 'accept', content: { name: 'Grace', check: true } }
    }))
    try {
      const result = await client.callTool({ name: 'everything__trigger-elicitation-request', arguments: {} })
      expect(asked).toEqual(['Please provide inputs for the following fields:'])
      expect(JSON.stringify(result.content)).toContain('Grace')
    } finally {
      await client.close()
    }
  })

  it('sampling and roots of a server over Streamable HTTP, each in its round', async () => {
    const client = await modernClient({ sampling: {}, roots: {} }, client => {
      client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', model: 'm2', content: { type: 'text', text: 'sampled' } }))
      client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///modern' }] }))
    })
    try {
      expect(JSON.parse(text(await client.callTool({ name: 'asking__sample', arguments: {} })))).toMatchObject({ model: 'm2', content: { text: 'sampled' } })
      expect(JSON.parse(text(await client.callTool({ name: 'asking__roots', arguments: {} })))).toEqual({ roots: [{ uri: 'file:///modern' }] })
    } finally {
      await client.close()
    }
  })

  it('a client that declared no elicitation: the server\'s request gets "method not found" at once, no round', async () => {
    const client = await modernClient({})
    try {
      const result = await client.callTool({ name: 'asking__ask', arguments: {} })
      expect(result.isError).toBe(true)
      expect(text(result)).toMatch(/-32601|Method not found/)
    } finally {
      await client.close()
    }
  })

  it('by hand: the round\'s requestState, a retry with the answer, a requestState of nothing refused', async () => {
    const first = await post({})
    expect(first.result.resultType).toBe('input_required')
    const [[key, question]] = Object.entries(first.result.inputRequests) as Array<[string, { method: string; params: { message: string } }]>
    expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Name for raw?' } })
    expect((await post({ requestState: 'gw-input-forged', inputResponses: { [key]: { action: 'decline' } } })).error.code).toBe(-32602)
    const done = await post({ requestState: first.result.requestState, inputResponses: { [key]: { action: 'accept', content: { name: 'R' } } } })
    expect(JSON.parse(done.result.content[0].text)).toEqual({ action: 'accept', content: { name: 'R' } })
    expect(proxy.proxy.kernel.services.mcpGateway!.inputRounds.size).toBe(0)
  })

  it('a server of the 2026-07-28 revision that asks by input_required: the question reaches a 2025 client as a request, its answer goes in the retry', async () => {
    const client = new LegacyClient({ name: 'legacy-asker', version: '1' }, { capabilities: { elicitation: {} } })
    client.setRequestHandler(ElicitRequestSchema, request => ({ action: 'accept', content: { sure: request.params.message === 'Deploy?' } }))
    await client.connect(new LegacyTransport(new URL(`${proxy.url}/mcp`), { requestInit: { headers: { authorization: 'Bearer k' } } }))
    try {
      expect(proxy.proxy.kernel.services.mcpGateway!.servers.get('confirming')!.protocolVersion).toBe(modern)
      expect(JSON.parse(text(await client.callTool({ name: 'confirming__confirm', arguments: {} })))).toEqual({ action: 'accept', content: { sure: true } })
    } finally {
      await client.close()
    }
  })

  it('a client that never sends the retry: the call ends with its timeout, the server\'s request with an error, and the round goes', async () => {
    const first = await post({})
    expect(first.result.resultType).toBe('input_required')
    const [key] = Object.keys(first.result.inputRequests)
    await new Promise(resolve => setTimeout(resolve, 5500))
    // A late retry gets the call's end, once.
    const late = await post({ requestState: first.result.requestState, inputResponses: { [key!]: { action: 'decline' } } })
    expect(late.result.isError).toBe(true)
    expect(late.result.content[0].text).toContain('did not answer within 5 s')
    expect(proxy.proxy.kernel.services.mcpGateway!.inputRounds.size).toBe(0)
    expect((await post({ requestState: first.result.requestState })).error.code).toBe(-32602)
  }, 15_000)
})
